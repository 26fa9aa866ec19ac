import type { RankingSignal } from './rankingSignal.ts';

/** The share of the query's entities (named or focus_entities) the memory carries: up to ×1.3. */
export const entityMatchSignal: RankingSignal = {
  field: 'entity_match',
  value: ({ match }) => match.entity_share,
  multiplier: (share) => 1 + 0.3 * share,
};
