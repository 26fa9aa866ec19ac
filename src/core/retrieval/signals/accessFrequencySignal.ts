import type { RankingSignal } from './rankingSignal.ts';

export const MAX_ACCESS_COUNT = 100;

/** How often the memory was recalled, on a log scale saturating at MAX_ACCESS_COUNT: ×0.95 to ×1.0. */
export const accessFrequencySignal: RankingSignal = {
  field: 'frequency',
  value: ({ memory }) => Math.min(1, Math.log(1 + memory.access_count) / Math.log(1 + MAX_ACCESS_COUNT)),
  multiplier: (frequency) => 0.95 + 0.05 * frequency,
};
