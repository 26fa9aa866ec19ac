import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SortedKeyIndex, sortedOrder } from '../../../src/stores/common/sortedKeyIndex.ts';

const loaded = ['mem_b', 'mem_a', 'mem_ü', 'mem_10', 'mem_9'];

test('loaded keys are found at their positions by binary search; others are not', () => {
  const index = new SortedKeyIndex(loaded, sortedOrder(loaded));
  loaded.forEach((key, position) => assert.equal(index.get(key), position, key));
  for (const missing of ['mem_', 'mem_c', 'a', 'zzz', 'mem_1']) assert.equal(index.get(missing), undefined, missing);
  assert.equal(index.size, loaded.length);
  assert.deepEqual([...index.values()], [0, 1, 2, 3, 4]);
});

test('sets and deletes after the load behave as a Map would, loaded keys and new keys alike', () => {
  const index = new SortedKeyIndex(loaded, sortedOrder(loaded));
  const map = new Map(loaded.map((key, position) => [key, position]));
  const steps: Array<['set', string, number] | ['delete', string]> = [
    ['delete', 'mem_a'],
    ['set', 'mem_new', 7],
    ['set', 'mem_b', 9],
    ['set', 'mem_a', 1],
    ['delete', 'mem_new'],
    ['set', 'mem_9', 4],
    ['delete', 'mem_ü'],
    ['delete', 'mem_ü'],
    ['set', 'mem_b', 0],
    ['set', 'mem_z', 2],
  ];
  for (const step of steps) {
    if (step[0] === 'set') {
      index.set(step[1], step[2]);
      map.set(step[1], step[2]);
    } else assert.equal(index.delete(step[1]), map.delete(step[1]), `delete ${step[1]}`);
    for (const key of [...loaded, 'mem_new', 'mem_z'])
      assert.equal(index.get(key), map.get(key), `${step.join(' ')}: ${key}`);
    assert.equal(index.size, map.size, step.join(' '));
    assert.deepEqual([...index.values()].sort(), [...map.values()].sort(), step.join(' '));
  }
});

test('keys out of order, repeated or with a bad permutation are named as a problem', () => {
  assert.equal(SortedKeyIndex.problemWith(loaded, sortedOrder(loaded)), null);
  assert.equal(SortedKeyIndex.problemWith(['a', 'b', 'c'], null), null);
  assert.match(SortedKeyIndex.problemWith(['b', 'a'], null)!, /not in order/);
  assert.match(SortedKeyIndex.problemWith(['a', 'a'], null)!, /twice/);
  assert.match(SortedKeyIndex.problemWith(['a', 'b'], Int32Array.of(0, 0))!, /twice/);
  assert.match(SortedKeyIndex.problemWith(['a', 'b'], Int32Array.of(0, 2))!, /position 2/);
  assert.match(SortedKeyIndex.problemWith(['a', 'b'], Int32Array.of(0))!, /1 sorted positions for 2 keys/);
});
