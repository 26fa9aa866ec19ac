import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffLines, hunkMatchesBaseline } from '../../../src/core/editor/lineDiff.ts';

test('separate changes are separate hunks, positioned on both sides', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f'];
  const after = ['a', 'B', 'c', 'd', 'f', 'g'];
  assert.deepEqual(diffLines(before, after), [
    { oldStart: 1, oldLines: ['b'], newStart: 1, newLines: ['B'] },
    { oldStart: 4, oldLines: ['e'], newStart: 4, newLines: [] },
    { oldStart: 6, oldLines: [], newStart: 5, newLines: ['g'] },
  ]);
  assert.deepEqual(diffLines(before, before), []);
});

test('a long middle is one hunk', () => {
  const before = Array.from({ length: 500 }, (_, i) => `x${i}`);
  const after = Array.from({ length: 500 }, (_, i) => `y${i}`);
  const hunks = diffLines(['same', ...before], ['same', ...after]);
  assert.equal(hunks.length, 1);
  assert.equal(hunks[0].oldStart, 1);
});

test('a hunk matches the baseline when no baseline change touches its lines', () => {
  const hunk = { oldStart: 1, oldLines: ['b'], newStart: 1, newLines: ['B'] };
  assert.equal(hunkMatchesBaseline(hunk, []), true);
  assert.equal(hunkMatchesBaseline(hunk, [{ oldStart: 3, oldLines: ['x'], newStart: 3, newLines: ['y'] }]), true);
  assert.equal(hunkMatchesBaseline(hunk, [{ oldStart: 1, oldLines: ['b'], newStart: 1, newLines: ['B'] }]), false);
  const deletion = { oldStart: 2, oldLines: ['c'], newStart: 2, newLines: [] };
  assert.equal(hunkMatchesBaseline(deletion, [{ oldStart: 2, oldLines: ['q'], newStart: 2, newLines: [] }]), false);
  assert.equal(hunkMatchesBaseline(deletion, [{ oldStart: 7, oldLines: ['q'], newStart: 7, newLines: [] }]), true);
});
