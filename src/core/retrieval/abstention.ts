/**
 * What an empty answer says: how many candidates the relevance floor held back and the best of
 * them, so the caller learns how close memory came ("best match 0.24 < floor 0.3").
 */
import type { RetrievalBreakdown } from '../api/longTermApi.ts';

/** The best candidate the relevance floor held back, so an empty answer can say how close it came. */
export interface BelowFloor {
  count: number;
  best: { memory_id: string; relevance_score: number } | null;
}

export function nothingBelowFloor(): BelowFloor {
  return { count: 0, best: null };
}

/** Counts one held-back candidate, keeping the best (its score compared before rounding). */
export function holdBack(below: BelowFloor, memoryId: string, score: number): void {
  below.count++;
  if (!below.best || score > below.best.relevance_score)
    below.best = { memory_id: memoryId, relevance_score: Math.round(score * 1000) / 1000 };
}

/** Adds another partition's held-back candidates. */
export function addBelowFloor(into: BelowFloor, other: BelowFloor): void {
  into.count += other.count;
  if (other.best && (!into.best || other.best.relevance_score > into.best.relevance_score)) into.best = other.best;
}

/** The breakdown fields of the floor: counts always, the best held back and a note when the answer is empty. */
export function abstentionReport(
  below: BelowFloor,
  floor: number,
  returned: number,
): Pick<RetrievalBreakdown, 'relevance_floor' | 'below_floor' | 'abstained' | 'best_below_floor' | 'note'> {
  return {
    relevance_floor: floor,
    below_floor: below.count,
    abstained: returned === 0,
    ...(returned === 0
      ? {
          best_below_floor: below.best,
          note: below.best
            ? `Memory has nothing on this (best match ${below.best.relevance_score.toFixed(2)} < floor ${floor}).`
            : 'Memory has nothing on this.',
        }
      : {}),
  };
}
