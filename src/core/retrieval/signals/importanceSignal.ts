import type { RankingSignal } from './rankingSignal.ts';

/** Importance as decayed by forgetting (pinned memories keep 1): ×0.85 to ×1.15. */
export const importanceSignal: RankingSignal = {
  field: 'importance',
  value: ({ memory }) => (memory.pinned ? 1 : memory.importance * memory.decay_factor),
  multiplier: (importance) => 0.85 + 0.3 * importance,
};
