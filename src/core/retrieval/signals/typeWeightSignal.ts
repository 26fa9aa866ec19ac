import type { RankingSignal } from './rankingSignal.ts';

/** The memory type's weight under the query's intent, as the caller gives it (typeWeights.ts; 1 for none). */
export const typeWeightSignal: RankingSignal = {
  field: 'type_weight',
  value: ({ typeMultiplier }) => typeMultiplier,
  multiplier: (weight) => weight,
};
