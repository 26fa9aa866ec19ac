/**
 * The relevance floor answers two questions, in this order:
 *   1. Has memory anything on this query? Only when at least one candidate reaches the floor.
 *      Otherwise the answer is empty (abstention), however many weak matches there are.
 *   2. Which memories go with that answer? The ones at the floor, and, when the caller leaves the
 *      floor at its default, partial matches down to PARTIAL_MATCH_SHARE of it, marked as partial
 *      (partial statements only beside a CONFIDENT_ANSWER, partial dialog turns only beside a turn).
 * A question a memory answers only in part (the other half of a two-part answer, the turn that
 * names one of two things asked about) scores below a full match; cutting every such memory cost
 * recall on dialog questions, while letting weak matches through without a strong one is what
 * floods an agent's context with memories about something else. Deciding abstention on the best
 * candidate and membership on a lower bar keeps the first property and recovers most of the second.
 */

/** Partial matches accompany an answer down to this share of the floor. */
export const PARTIAL_MATCH_SHARE = 0.5;
/**
 * Partial matches that are stored statements (not dialog turns) go only with a confident answer,
 * one whose best match reaches this. An answer that barely clears the floor is itself weak
 * evidence, and the statements that match a part of the question beside it are mostly about
 * something else and share a word. Coding set: never-stored questions 0.9 -> 0.2 results on
 * average; the same from 0.4 to 0.5, so the value is not balanced on an edge.
 */
export const CONFIDENT_ANSWER = 0.4;
/*
 * COMPLEMENTARY_STATEMENT (issue 30): when every answer is a dialog turn, a partial stored statement
 * also goes with it if it matches a query term none of the answering turns matched. A turn that
 * clears the floor on one shared word ("feature" in "a night featuring artists") is weak evidence,
 * and the statement that names the question's other word ("experiments") is the rest of the
 * question, not more of the same word. Measured: first coding set R@5 62.5 -> 65.0; no change to
 * the never-stored questions, nor to the other coding set's 93 questions asked of that store
 * (bench/coding/crossSetNegatives.ts: 0.45 results, 11 % with any, before and after); LoCoMo and
 * coding-2 hold no mixed store, so it cannot act there. Against any answer (a statement too), it
 * doubled the never-stored questions' results (0.2 -> 0.4): not kept.
 */

export interface FloorCandidate {
  /** The score the floor is compared with (the final score, or before type weights for context packing). */
  gate: number;
  /** A turn of a marked conversation (conversationKey.ts): beside a turn that clears the floor, partial turns go down to the partial floor. */
  dialogTurn: boolean;
  /** The query's index terms the candidate matched: a partial statement that adds one beside a chat answer is kept. */
  matchedTerms?: readonly string[];
}

export interface FloorDecision<T> {
  /** Candidates that go into the answer, in the order given. */
  kept: T[];
  /** Those of `kept` below the floor itself: partial matches the answer marks as such. */
  partial: Set<T>;
  /** Candidates left out, and the best of them (what an empty answer reports). */
  heldBack: T[];
  abstained: boolean;
}

/** The lowest gate a candidate may have to be kept beside a match that clears `floor`. */
export function partialFloor(floor: number, partialMatches: boolean): number {
  return partialMatches ? floor * PARTIAL_MATCH_SHARE : floor;
}

/**
 * Applies the floor to ranked candidates that all reach `partialFloor(floor, …)` already (the
 * search drops the rest early). Abstains when none reaches `floor`, unless `answersWithout` picks
 * candidates that answer the question whatever their words (heldWindowAnswers.ts): then those,
 * and only those, are the answer, all partial.
 */
export function applyRelevanceFloor<T extends FloorCandidate>(
  ranked: readonly T[],
  floor: number,
  answersWithout?: (candidate: T) => boolean,
): FloorDecision<T> {
  const best = ranked.reduce((max, candidate) => Math.max(max, candidate.gate), 0);
  if (best < floor) {
    const kept = answersWithout ? ranked.filter(answersWithout) : [];
    return {
      kept,
      partial: new Set(kept),
      heldBack: ranked.filter((candidate) => !kept.includes(candidate)),
      abstained: kept.length === 0,
    };
  }
  const confident = best >= CONFIDENT_ANSWER;
  // Partial turns go with an answer from the dialog: beside a stored statement they are chatter that shares a word.
  const dialogAnswer = ranked.some((candidate) => candidate.dialogTurn && candidate.gate >= floor);
  const answers = ranked.filter((candidate) => candidate.gate >= floor);
  // Beside an answer only the dialog gives, a statement that matches a word no answering turn has
  // is the other half of the question, not chatter on the same word (COMPLEMENTARY_STATEMENT).
  const chatOnly = answers.every((candidate) => candidate.dialogTurn);
  const answeredTerms = new Set(answers.flatMap((candidate) => candidate.matchedTerms ?? []));
  const complements = (candidate: T): boolean =>
    chatOnly && (candidate.matchedTerms ?? []).some((term) => !answeredTerms.has(term));
  const clears = (candidate: T): boolean =>
    candidate.gate >= floor || (candidate.dialogTurn ? dialogAnswer : confident || complements(candidate));
  const kept = ranked.filter(clears);
  return {
    kept,
    partial: new Set(kept.filter((candidate) => candidate.gate < floor)),
    heldBack: ranked.filter((candidate) => !clears(candidate)),
    abstained: false,
  };
}
