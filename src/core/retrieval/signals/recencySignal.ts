import { ageInDaysSince } from '../../util/time.ts';
import type { RankingSignal } from './rankingSignal.ts';

export const RECENCY_HALF_LIFE_DAYS = 30;

/** Recency since last access, halving every RECENCY_HALF_LIFE_DAYS: ×0.9 (long unused) to ×1.0. */
export const recencySignal: RankingSignal = {
  field: 'recency',
  value: ({ memory, now }) =>
    Math.exp((-ageInDaysSince(memory.last_accessed_ms, now) * Math.LN2) / RECENCY_HALF_LIFE_DAYS),
  multiplier: (recency) => 0.9 + 0.1 * recency,
};
