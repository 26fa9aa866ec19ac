import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandWithNeighbours } from '../../../src/core/retrieval/neighbourExpansion.ts';

// A line of turns t0..t9: the neighbours of t<i> are t<i-1> and t<i+1>.
const line = (id: string) => {
  const i = Number(id.slice(1));
  return [i - 1, i + 1].filter((j) => j >= 0 && j < 10).map((j) => `t${j}`);
};
const hit = (memory_id: string, score: number, matched_terms = ['x']) => ({ memory_id, score, matched_terms });

test('adds neighbours of hits with a decayed score', () => {
  const out = expandWithNeighbours([hit('t5', 10)], line, { decay: 0.5, hops: 1, combine: 'sum' });
  assert.deepEqual(
    out.map((h) => [h.memory_id, h.score]),
    [
      ['t5', 10],
      ['t4', 5],
      ['t6', 5],
    ],
  );
  assert.deepEqual(out[1].matched_terms, []);
});

test('sum lifts a hit whose neighbour also matches; max does not', () => {
  const hits = [hit('t1', 10), hit('t5', 8, ['x']), hit('t6', 3, ['y'])];
  const summed = expandWithNeighbours(hits, line, { decay: 0.5, hops: 1, combine: 'sum' });
  assert.equal(summed[0].memory_id, 't1');
  assert.equal(summed.find((h) => h.memory_id === 't5')!.score, 8 + 1.5);
  assert.equal(summed.find((h) => h.memory_id === 't6')!.score, 3 + 4);
  const maxed = expandWithNeighbours(hits, line, { decay: 0.5, hops: 1, combine: 'max' });
  assert.equal(maxed.find((h) => h.memory_id === 't5')!.score, 8);
  assert.equal(maxed.find((h) => h.memory_id === 't6')!.score, 4);
});

test('scores travel several hops with compounding decay and keep the best lent score', () => {
  const out = expandWithNeighbours([hit('t5', 8)], line, { decay: 0.5, hops: 2, combine: 'sum' });
  const scores = Object.fromEntries(out.map((h) => [h.memory_id, h.score]));
  assert.deepEqual(scores, { t5: 8, t4: 4, t6: 4, t3: 2, t7: 2 });
});

test('ties keep the order in which documents were reached', () => {
  const out = expandWithNeighbours([hit('t2', 4), hit('t8', 4)], line, { decay: 0.5, hops: 1, combine: 'max' });
  assert.deepEqual(
    out.map((h) => h.memory_id),
    ['t2', 't8', 't1', 't3', 't7', 't9'],
  );
});

test('no neighbours leaves the ranking unchanged', () => {
  const hits = [hit('a', 3), hit('b', 2)];
  assert.deepEqual(
    expandWithNeighbours(hits, () => []),
    hits,
  );
  assert.deepEqual(expandWithNeighbours([], line), []);
});

test('an edge share scales one step, never past the turn it is lent from', () => {
  // t5 -> t6 is a question's reply: 1.2 x the decay; every other step the plain decay.
  const share = (from: string, to: string) => (from === 't5' && to === 't6' ? 1.2 : 1);
  const out = expandWithNeighbours([hit('t5', 10)], line, { decay: 0.5, hops: 2, combine: 'max' }, share);
  const scores = Object.fromEntries(out.map((h) => [h.memory_id, h.score]));
  assert.deepEqual(scores, { t5: 10, t4: 5, t6: 6, t3: 2.5, t7: 3 });
  const capped = expandWithNeighbours([hit('t5', 10)], line, { decay: 0.5, hops: 1, combine: 'max' }, () => 3);
  assert.equal(capped.find((h) => h.memory_id === 't6')!.score, 10);
});

const near = (hits: ReturnType<typeof expandWithNeighbours>, id: string, expected: number): void => {
  const score = hits.find((h) => h.memory_id === id)!.score;
  assert.ok(Math.abs(score - expected) < 1e-9, `${id}: ${score}, expected ${expected}`);
};

test('a neighbour matching only the same single word adds nothing to a turn matching only it', () => {
  // Two turns that each say "memory" are no more about the question than one of them.
  const hits = [hit('t5', 0.3, ['memori']), hit('t6', 0.3, ['memori'])];
  const out = expandWithNeighbours(hits, line, { decay: 0.5, hops: 1, combine: 'or' });
  near(out, 't5', 0.3);
  near(out, 't6', 0.3);
  // A second word on either side makes it a run about the question: the shares add up again.
  const two = expandWithNeighbours([hit('t5', 0.3, ['memori']), hit('t6', 0.3, ['memori', 'grow'])], line, {
    decay: 0.5,
    hops: 1,
    combine: 'or',
  });
  near(two, 't5', 1 - 0.7 * 0.85);
  // A neighbour that matched nothing itself still receives the share.
  near(out, 't4', 0.15);
});

test('evidence the caller adds (the time asked about) counts as a second word', () => {
  const hits = [hit('t5', 0.3, ['memori']), hit('t6', 0.3, ['memori'])];
  const out = expandWithNeighbours(
    hits,
    line,
    { decay: 0.5, hops: 1, combine: 'or' },
    () => 1,
    (h) => (h.memory_id === 't6' ? [...h.matched_terms, 'in window'] : h.matched_terms),
  );
  near(out, 't5', 1 - 0.7 * 0.85);
  assert.deepEqual(out.find((h) => h.memory_id === 't6')!.matched_terms, ['memori']);
});
