// keepBest + sortBestFirst must pick the same slots in the same order as the search's former way,
// offering every touched slot above a TopK's threshold and draining it: random touched lists over
// slots whose orders are shuffled (the tie-break is the order, not the slot), scores with many
// ties, some NaN, and limits from one to past the touched count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { keepBest, sortBestFirst, zeroMasks, zeroScores } from '../../../src/stores/common/bestSlots.ts';
import { TopK } from '../../../src/stores/common/topK.ts';

interface Case {
  scores: Float64Array;
  orders: Float64Array;
  touched: Int32Array;
}

function viaTopK({ scores, orders, touched }: Case, limit: number): number[] {
  const best = new TopK(limit);
  for (const slot of touched) {
    const score = scores[slot];
    if (score >= best.threshold()) best.offer(slot, score, orders[slot]);
  }
  return best.drain().map(({ slot }) => slot);
}

function viaKeepBest({ scores, orders, touched }: Case, limit: number): number[] {
  const heap = new Int32Array(Math.min(limit, touched.length));
  const kept = keepBest(touched, touched.length, scores, orders, heap);
  sortBestFirst(heap, kept, scores, orders);
  return [...heap.subarray(0, kept)];
}

const aCase = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(Number.NaN)), { minLength: 1, maxLength: 60 })
  .chain((scores) =>
    fc.record({
      scores: fc.constant(scores),
      orders: fc.shuffledSubarray(
        scores.map((_, slot) => slot * 3),
        { minLength: scores.length, maxLength: scores.length },
      ),
      touched: fc.shuffledSubarray(
        scores.map((_, slot) => slot),
        { minLength: 0, maxLength: scores.length },
      ),
    }),
  )
  .map(({ scores, orders, touched }): Case => ({
    scores: Float64Array.from(scores),
    orders: Float64Array.from(orders),
    touched: Int32Array.from(touched),
  }));

describe('bestSlots', () => {
  it('keeps the slots a TopK keeps, best first, ties to the lower order, NaN never (random cases)', () => {
    fc.assert(
      fc.property(aCase, fc.integer({ min: 1, max: 70 }), (value, limit) => {
        assert.deepEqual(viaKeepBest(value, limit), viaTopK(value, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it('zeroes exactly the touched cells', () => {
    const scores = Float64Array.from([1, 2, 3, 4]);
    const masks = Int32Array.from([5, 6, 7, 8]);
    const touched = Int32Array.from([3, 1, 0]);
    zeroScores(scores, touched, 2);
    zeroMasks(masks, touched, 3);
    assert.deepEqual([...scores], [1, 0, 3, 0]);
    assert.deepEqual([...masks], [0, 0, 7, 0]);
  });
});
