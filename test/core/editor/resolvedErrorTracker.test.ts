import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeResolvedError, type ObservedError, ResolvedErrorTracker } from '../../../src/core/editor/resolvedErrorTracker.ts';

const cannotFind: ObservedError = { file: 'src/a.ts', line: 12, message: "Cannot find name 'fooo'.", source: 'ts', code: '2304', lineText: 'const x = fooo + 1;' };

test('an error that disappears after an edit near it becomes an outcome naming the change', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 1000 });
  assert.deepEqual(tracker.observe('src/a.ts', [cannotFind], 0), []);
  tracker.recordEdit({ file: 'src/other.ts', line: 1, inserted: 'unrelated', removed: 0 }, 2000);
  tracker.recordEdit({ file: 'src/a.ts', line: 12, inserted: 'foo', removed: 4 }, 3000);
  const [outcome, ...rest] = tracker.observe('src/a.ts', [], 4000);
  assert.equal(rest.length, 0);
  assert.equal(outcome.error.message, cannotFind.message);
  assert.deepEqual(outcome.edits, [{ file: 'src/a.ts', line: 12, inserted: 'foo', removed: 4 }]);
  const text = describeResolvedError(outcome);
  assert.match(text, /Error resolved: \[ts 2304\] "Cannot find name 'fooo'\." in src\/a\.ts:12\./);
  assert.match(text, /Line before the fix: const x = fooo \+ 1;/);
  assert.match(text, /Resolved by: replaced 4 characters with "foo" at src\/a\.ts:12\./);
});

test('an error that vanishes with no edit (closed file, restarted server) is not an outcome', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  assert.deepEqual(tracker.observe('src/a.ts', [], 10_000), []);
});

test('short-lived errors while typing are ignored', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 5000 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  tracker.recordEdit({ file: 'src/a.ts', line: 12, inserted: 'o', removed: 0 }, 500);
  assert.deepEqual(tracker.observe('src/a.ts', [], 1000), []);
});

test('an error that only moves to another line is still open', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  tracker.recordEdit({ file: 'src/a.ts', line: 1, inserted: '// comment\n', removed: 0 }, 100);
  assert.deepEqual(tracker.observe('src/a.ts', [{ ...cannotFind, line: 13 }], 200), []);
  const resolved = tracker.observe('src/a.ts', [], 300);
  assert.equal(resolved.length, 1);
  assert.equal(resolved[0].firstSeen, 0, 'age counts from the first sighting, not the move');
});

test('a cascade of vanished errors yields at most maxPerSnapshot outcomes; deletions are described', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0, maxPerSnapshot: 2 });
  const errors = [1, 2, 3, 4].map((n) => ({ file: 'b.py', line: n, message: `error ${n}` }));
  tracker.observe('b.py', errors, 0);
  tracker.recordEdit({ file: 'b.py', line: 40, inserted: '', removed: 7 }, 50);
  const resolved = tracker.observe('b.py', [], 100);
  assert.equal(resolved.length, 2);
  assert.match(describeResolvedError(resolved[0]), /Resolved by: deleted 7 characters at b\.py:40\./);
});

test('a fix in another file counts when the erroring file was not edited', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  tracker.recordEdit({ file: 'src/lib.ts', line: 3, inserted: 'export const fooo = 1;', removed: 0 }, 10);
  const [outcome] = tracker.observe('src/a.ts', [], 20);
  assert.equal(outcome.edits[0].file, 'src/lib.ts');
});

test('forget drops a file without reporting its errors', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  tracker.recordEdit({ file: 'src/a.ts', line: 12, inserted: 'x', removed: 0 }, 10);
  tracker.forget('src/a.ts');
  assert.deepEqual(tracker.observe('src/a.ts', [], 20), []);
});
