import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeResolvedError,
  type ObservedError,
  ResolvedErrorTracker,
} from '../../../src/core/editor/resolvedErrorTracker.ts';

const cannotFind: ObservedError = {
  file: 'src/a.ts',
  line: 12,
  message: "Cannot find name 'fooo'.",
  source: 'ts',
  code: '2304',
  lineText: 'const x = fooo + 1;',
};

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
  assert.match(text, /Fixed by editing src\/a\.ts at line 12\./);
  assert.doesNotMatch(text, /inserted|characters/, 'keystrokes are not the fix');
});

test('with the file at hand, the outcome shows the changed lines before and after, found again below inserted lines', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  const before = [
    'function total(items: Item[]): number {',
    '  let sum = 0;',
    '  const n: number = "4";',
    '  return sum + n;',
    '}',
  ];
  const error: ObservedError = {
    file: 'src/total.ts',
    line: 12,
    message: "Type 'string' is not assignable to type 'number'.",
    source: 'ts',
    code: '2322',
    language: 'typescript',
    window: { start: 10, lines: before },
  };
  tracker.observe('src/total.ts', [error], 0);
  tracker.recordEdit(
    { file: 'src/total.ts', line: 1, inserted: "import { Item } from './item';\n\n", removed: 0, linesAdded: 2 },
    10,
  );
  tracker.recordEdit({ file: 'src/total.ts', line: 14, inserted: '4', removed: 0, linesAdded: 0 }, 20);
  tracker.recordEdit({ file: 'src/total.ts', line: 14, inserted: '2', removed: 0, linesAdded: 0 }, 30);
  const file = [
    '',
    ...Array.from({ length: 11 }, (_, i) => `line ${i + 1}`),
    ...before.map((line) => line.replace('"4"', '42')),
  ];
  const asked: Array<[number, number]> = [];
  const [outcome] = tracker.observe('src/total.ts', [], 40, (from, to) => {
    asked.push([from, to]);
    return file.slice(from, to + 1);
  });
  assert.deepEqual(asked, [[12, 16]], 'the window moved down by the two inserted lines');
  assert.equal(
    describeResolvedError(outcome),
    [
      "Error resolved: [ts 2322] \"Type 'string' is not assignable to type 'number'.\" in src/total.ts:12 (typescript).",
      'Before (src/total.ts:12):',
      '      const n: number = "4";',
      'After (src/total.ts:14):',
      '      const n: number = 42;',
    ].join('\n'),
  );
});

test('lines added inside the window are shown, and a fix with no text change falls back to naming the edit', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  const error: ObservedError = {
    file: 'a.py',
    line: 2,
    message: 'missing import',
    window: { start: 1, lines: ['def f():', '    return os.getcwd()'] },
  };
  tracker.observe('a.py', [error], 0);
  tracker.recordEdit({ file: 'a.py', line: 1, inserted: 'import os\n', removed: 0, linesAdded: 1 }, 5);
  const now = ['import os', 'def f():', '    return os.getcwd()'];
  const [outcome] = tracker.observe('a.py', [], 10, (from, to) => now.slice(from - 1, to));
  assert.match(
    describeResolvedError(outcome),
    /Before \(a\.py:1\):\n {4}\(no lines\)\nAfter \(a\.py:1\):\n {4}import os$/,
  );
  const unchanged = new ResolvedErrorTracker({ minAgeMs: 0 });
  unchanged.observe('a.py', [error], 0);
  unchanged.recordEdit({ file: 'a.py', line: 2, inserted: ' ', removed: 1, linesAdded: 0 }, 5);
  const [same] = unchanged.observe('a.py', [], 10, (from, to) => error.window!.lines.slice(from - 1, to));
  assert.match(describeResolvedError(same), /Fixed by editing a\.py at line 2\.$/);
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
  assert.match(describeResolvedError(resolved[0]), /Fixed by editing b\.py at line 40\./);
});

test('a fix in another file counts when the erroring file was not edited', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  tracker.recordEdit({ file: 'src/lib.ts', line: 3, inserted: 'export const fooo = 1;', removed: 0 }, 10);
  const [outcome] = tracker.observe('src/a.ts', [], 20);
  assert.equal(outcome.edits[0].file, 'src/lib.ts');
  assert.match(describeResolvedError(outcome), /Fixed in src\/lib\.ts:3: added "export const fooo = 1;"\.$/);
});

test('forget drops a file without reporting its errors', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/a.ts', [cannotFind], 0);
  tracker.recordEdit({ file: 'src/a.ts', line: 12, inserted: 'x', removed: 0 }, 10);
  tracker.forget('src/a.ts');
  assert.deepEqual(tracker.observe('src/a.ts', [], 20), []);
});
