/**
 * A ranking signal: one bounded multiplier on a memory's match score, with the field that reports
 * it in score_breakdown. Bounded, not summed, so an important but unrelated memory cannot outrank
 * the answer: the match decides whether a memory is about the query, the signals only reorder
 * close matches (relevance.ts composes them; RANKING_SIGNALS lists them in the order they apply).
 */
import type { RankingFacts } from '../../domain/rankingFacts.ts';

export interface MatchSignals {
  /** Lexical score normalised to [0, 1] within the query. */
  text: number;
  /** Cosine similarity mapped to [0, 1], or null when the memory had no comparable vector. */
  semantic: number | null;
  matched_terms: string[];
  matched_entities: string[];
  /** How many of the query's focus entities the memory carries, as a share in [0, 1]. */
  entity_share: number;
}

/** What a signal may read about one candidate: its ranking facts, never its text. */
export interface SignalContext {
  memory: RankingFacts;
  match: MatchSignals;
  /** The caller's type multiplier under the detected intent (typeWeights.ts). */
  typeMultiplier: number;
  now: Date;
}

export interface RankingSignal {
  /** Its field in score_breakdown. */
  field: 'recency' | 'importance' | 'frequency' | 'type_weight' | 'entity_match' | 'confidence';
  /** The signal's value for one candidate, as the breakdown reports it (before rounding). */
  value(context: SignalContext): number;
  /** Its bounded multiplier on the match score. */
  multiplier(value: number): number;
}
