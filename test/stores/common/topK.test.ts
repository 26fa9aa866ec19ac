// TopK keeps the best `capacity` of a stream, ties to the earlier offer. Checked against the
// obvious oracle (sort everything, take the first k) on random streams with many ties, which is
// where a heap that sifts the wrong way or compares the wrong field goes wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TopK } from '../../../src/stores/common/topK.ts';

function oracle(scores: readonly number[], capacity: number): Array<{ slot: number; score: number }> {
  return scores
    .map((score, order) => ({ slot: order, score, order }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, Math.max(0, Math.floor(capacity)))
    .map(({ slot, score }) => ({ slot, score }));
}
function run(scores: readonly number[], capacity: number): TopK {
  const top = new TopK(capacity);
  scores.forEach((score, order) => top.offer(order, score, order));
  return top;
}

describe('TopK', () => {
  it('keeps the best k, best first, ties to the earlier offer (random streams)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 12 }),
        (scores, capacity) => {
          assert.deepEqual(run(scores, capacity).drain(), oracle(scores, capacity));
        },
      ),
      { seed: 21, numRuns: 400 },
    );
  });

  it('ties: a later equal score does not displace an earlier one, an earlier one does', () => {
    const top = new TopK(2);
    top.offer(10, 0.5, 5);
    top.offer(11, 0.5, 6);
    top.offer(12, 0.5, 7);
    assert.deepEqual(
      top.drain().map((entry) => entry.slot),
      [10, 11],
    );
    top.offer(13, 0.5, 1);
    assert.deepEqual(
      top.drain().map((entry) => entry.slot),
      [13, 10],
    );
  });

  it('threshold is -Infinity until full, then the lowest kept score', () => {
    const top = new TopK(2);
    assert.equal(top.threshold(), -Infinity);
    top.offer(0, 0.7, 0);
    assert.equal(top.threshold(), -Infinity);
    top.offer(1, 0.4, 1);
    assert.equal(top.threshold(), 0.4);
    top.offer(2, 0.9, 2);
    assert.equal(top.threshold(), 0.7);
    assert.equal(top.size, 2);
  });

  it('a capacity of zero, a negative or a fractional capacity keeps that many whole entries', () => {
    assert.deepEqual(run([1, 2, 3], 0).drain(), []);
    assert.deepEqual(run([1, 2, 3], -2).drain(), []);
    assert.deepEqual(run([1, 3, 2], 2.9).drain(), [
      { slot: 1, score: 3 },
      { slot: 2, score: 2 },
    ]);
  });
});
