/**
 * Rule-based query intent (seed 000 §4.3): picks the retrieval profile. Rules are ordered
 * by how strongly their cue signals intent: an error message inside a "how do I" question
 * is still a debugging question, and a "what happened" question is episodic even though
 * it starts with "what".
 */
export type QueryIntent = 'how_to' | 'what_happened' | 'what_is' | 'debug' | 'general';

const DEBUG: readonly RegExp[] = [
  /(error|exception)s?\b/,
  /\b(traceback|stack ?trace|segfault|panic|crash(es|ed|ing)?|bug|bugs|broken|regression)\b/,
  /\b(fail(s|ed|ing|ure)?|flaky|timed? ?out|hangs?|freez(es|ing))\b/,
  /(\b(not|never|no longer|cannot)|n'?t) (work|run|start|load|compile|build|pass|connect|resolve|open|find)/,
  /\bwhy\b.*(n'?t\b|\b(not|fail\w*|wrong|slow|empty|null|undefined|missing)\b)/,
  /\b(ts\d{4}|http ?[45]\d\d|exit code [1-9]\d*)\b/,
  /\b(fix|debug|troubleshoot)\b/,
];

const HOW_TO: readonly RegExp[] = [
  /^(how (do|can|should|would|could) (i|we|you|one)|how to)\b/,
  /\bhow (do|can|should) (i|we) \w+/,
  /\b(steps|way|command|instructions) (to|for)\b/,
  /^(set ?up|install|configure|deploy|run|create|add|write|migrate|upgrade)\b/,
];

const WHAT_HAPPENED: readonly RegExp[] = [
  /\bwhat (happened|changed|went)\b/,
  /\b(when|why) (did|was|were|have|had)\b/,
  /\bwhat (did|have|had) (i|we|you|they|he|she|\w+) (do|decide|choose|pick|change|say|try|find|learn|use)\b/,
  /\b(last time|previously|earlier|yesterday|last (week|month|year|sprint)|ago|history of|decided|decision)\b/,
];

const WHAT_IS: readonly RegExp[] = [
  /^(what|who|which) (is|are|was|were)\b/,
  /^what'?s\b/,
  /^(define|explain|describe)\b/,
  /\bwhat does .+ (mean|do|stand for)\b/,
  /\b(meaning|definition) of\b/,
];

/** POSIX error codes (ENOENT, EACCES) are only recognisable in their original upper case. */
const ERROR_CODE = /\bE[A-Z]{3,}\b/;

function matchesAny(text: string, rules: readonly RegExp[]): boolean {
  return rules.some((rule) => rule.test(text));
}

export function detectIntent(query: string): QueryIntent {
  const text = query
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .trim();
  if (text.length === 0) return 'general';
  if (ERROR_CODE.test(query) || matchesAny(text, DEBUG)) return 'debug';
  if (matchesAny(text, HOW_TO)) return 'how_to';
  if (matchesAny(text, WHAT_HAPPENED)) return 'what_happened';
  if (matchesAny(text, WHAT_IS)) return 'what_is';
  return 'general';
}
