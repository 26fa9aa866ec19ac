/**
 * The relevance floor answers two questions, in this order:
 *   1. Has memory anything on this query? Only when at least one candidate reaches the floor.
 *      Otherwise the answer is empty (abstention), however many weak matches there are.
 *   2. Which memories go with that answer? The ones at the floor, and, when the caller leaves the
 *      floor at its default, partial matches down to PARTIAL_MATCH_SHARE of it, marked as partial.
 * A question a memory answers only in part (the other half of a two-part answer, the turn that
 * names one of two things asked about) scores below a full match; cutting every such memory cost
 * recall on dialog questions, while letting weak matches through without a strong one is what
 * floods an agent's context with memories about something else. Deciding abstention on the best
 * candidate and membership on a lower bar keeps the first property and recovers most of the second.
 */

/** Partial matches accompany an answer down to this share of the floor. */
export const PARTIAL_MATCH_SHARE = 0.5;

export interface FloorCandidate {
  /** The score the floor is compared with (the final score, or before type weights for context packing). */
  gate: number;
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
 * search drops the rest early). Abstains when none reaches `floor`.
 */
export function applyRelevanceFloor<T extends FloorCandidate>(ranked: readonly T[], floor: number): FloorDecision<T> {
  if (!ranked.some((candidate) => candidate.gate >= floor))
    return { kept: [], partial: new Set(), heldBack: [...ranked], abstained: true };
  return {
    kept: [...ranked],
    partial: new Set(ranked.filter((candidate) => candidate.gate < floor)),
    heldBack: [],
    abstained: false,
  };
}
