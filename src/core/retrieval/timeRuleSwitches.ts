/**
 * The time rules of recall, each of which an evaluation may switch off to measure what it adds
 * (bench/locomo/timeRuleAblation.ts, issue 30 point 4: every time rule is checked on the LoCoMo
 * tuning conversations and on the other development conversations, one off at a time). The product
 * never switches one off: every rule is on unless an evaluation says otherwise.
 */
export const TIME_RULES = [
  /** The query's time phrases become a calendar window or a vague point (timeExpressions.ts). */
  'timeExpressions',
  /** Date ranges in the query ("from May to July 2023") are one window (timeRanges.ts). */
  'timeRanges',
  /** Memories near a vague time ("two weeks ago") get TIME_BOOST (vagueTimeSignal.ts). */
  'vagueTimeSignal',
  /** A yearless date moves to the latest occurrence the memories reach (yearlessDates.ts). */
  'yearlessDates',
  /** Memories recorded just before or after the window that name a time in it cover it (toldOfWindow.ts). */
  'toldOfWindow',
  /** A small window's topic members the full pool cut are candidates (windowTopicMembers.ts). */
  'windowTopicMembers',
  /** A question asking when ranks memories stating a time first (timeAnswerWeighting.ts). */
  'timeAnswerWeighting',
  /** A question naming a time the memories hold is weighted like one asking when (recall.ts, timeAnswerWeighting.ts). */
  'windowTimeAnswers',
  /** In a question naming a time the memories hold, the wh-focus words count as generic ones (questionFocus.ts). */
  'questionFocus',
  /** A question naming a time the memories hold that nothing clears the floor for gets that time's matches (heldWindowAnswers.ts). */
  'heldWindowAnswers',
  /** timeMentions.ts, its days and periods told relative to the telling ("yesterday", "last week"). */
  'timeMentions.relative',
  /** timeMentions.ts, its durations and counts from the telling ("for 3 years", "two weeks ago"). */
  'timeMentions.duration',
  /** timeMentions.ts, its calendar dates ("8 May", "May 2023", "in 2019"). */
  'timeMentions.calendar',
  /** Dialog turns lend score to their neighbours in the conversation (conversationNeighbours.ts). */
  'conversationNeighbours',
  /** The reply to a question turn gets ANSWER_SHARE of its score, not the plain decay (neighbourExpansion.ts edge share). */
  'neighbourReplyShare',
  /** Anchored memories lose score when their code changed (anchorFreshnessWeighting.ts). */
  'anchorFreshnessWeighting',
] as const;

export type TimeRule = (typeof TIME_RULES)[number];

let switchedOff: ReadonlySet<TimeRule> = new Set();

/** Whether `rule` applies: always in the product. */
export function timeRuleOn(rule: TimeRule): boolean {
  return !switchedOff.has(rule);
}

/**
 * For evaluations only (bench/locomo/timeRuleAblation.ts): the rules named are switched off until
 * the next call; null or an empty list switches every rule back on. Nothing in the product calls it.
 */
export function switchOffTimeRulesForEvaluation(rules: Iterable<TimeRule> | null): void {
  switchedOff = new Set(rules ?? []);
}
