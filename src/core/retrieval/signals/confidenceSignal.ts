import type { RankingSignal } from './rankingSignal.ts';

/** How sure the writer was of the memory: ×0.7 (confidence 0) to ×1.0. */
export const confidenceSignal: RankingSignal = {
  field: 'confidence',
  value: ({ memory }) => memory.confidence,
  multiplier: (confidence) => 0.7 + 0.3 * confidence,
};
