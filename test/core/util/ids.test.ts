import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, newTimeOrderedId } from '../../../src/core/util/ids.ts';

test('a time-ordered access id has the shape of a random one: acc_ and 32 hex digits', () => {
  assert.match(newTimeOrderedId('acc'), /^acc_[0-9a-f]{32}$/);
  assert.match(newId('acc'), /^acc_[0-9a-f]{32}$/);
});

test('time-ordered ids made in later milliseconds sort after earlier ones', async () => {
  const ids: string[] = [];
  for (let round = 0; round < 5; round++) {
    ids.push(newTimeOrderedId('acc'));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.deepEqual([...ids].sort(), ids);
});

test('time-ordered ids of the same millisecond stay apart', () => {
  const ids = Array.from({ length: 10_000 }, () => newTimeOrderedId('acc'));
  assert.equal(new Set(ids).size, ids.length);
});
