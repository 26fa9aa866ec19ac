import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeResolvedError,
  fixedLines,
  MIN_ERROR_AGE_MS,
  type ObservedError,
  ResolvedErrorTracker,
} from '../../../src/core/editor/resolvedErrorTracker.ts';

// A small file in three states: as it was (compiles), broken (a typo), and fixed for real.
const clean = [
  "import { vat } from './vat';",
  '',
  'export function invoiceTotal(lines: Line[]): number {',
  '  const subtotal = lines.reduce((sum, line) => sum + line.price, 0);',
  '  return subtotal + vat(subtotal);',
  '}',
  '',
].join('\n');
const broken = clean.replace('const subtotal =', 'const subtotl =');
const fixedForReal = broken.replace('return subtotal + vat(subtotal);', 'return subtotl + vat(subtotl);');

const cannotFind: ObservedError = {
  file: 'src/invoice.ts',
  line: 5,
  message: "Cannot find name 'subtotal'.",
  source: 'ts',
  code: '2304',
  language: 'typescript',
};

/** The editor's sequence: error-free text seen, the break, the error for `brokenFor` ms, then `after`. */
function run(after: string, brokenFor: number, tracker = new ResolvedErrorTracker()) {
  assert.deepEqual(tracker.observe('src/invoice.ts', [], 0, clean), []);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 4, inserted: 'subtotl', removed: 8 }, 100);
  assert.deepEqual(tracker.observe('src/invoice.ts', [cannotFind], 200, broken), []);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 5, inserted: 'x', removed: 8 }, 200 + brokenFor - 10);
  return tracker.observe('src/invoice.ts', [], 200 + brokenFor, after);
}

test('an error that lived a while and was fixed by a real change is remembered with the fix as a diff, anchored on the fixed line', () => {
  const [outcome, ...rest] = run(fixedForReal, MIN_ERROR_AGE_MS);
  assert.equal(rest.length, 0);
  assert.equal(
    describeResolvedError(outcome),
    [
      `Error resolved: [ts 2304] "Cannot find name 'subtotal'." in src/invoice.ts:5 (typescript).`,
      'Fix (src/invoice.ts:5):',
      '-   return subtotal + vat(subtotal);',
      '+   return subtotl + vat(subtotl);',
    ].join('\n'),
  );
  assert.deepEqual(fixedLines(outcome), { from: 5, to: 5 }, 'the anchor is the fixed line, not line 1');
  assert.doesNotMatch(describeResolvedError(outcome), /import|invoiceTotal\(/, 'not the whole file');
});

test('a break undone (the text from before the error back) is no outcome, however long the error lived', () => {
  assert.deepEqual(run(clean, MIN_ERROR_AGE_MS), []);
  assert.deepEqual(run(clean, 10 * MIN_ERROR_AGE_MS), []);
});

test('an undo with an unrelated edit elsewhere in the file is still a revert of the broken line', () => {
  const padding = Array.from({ length: 10 }, (_, i) => `// ${i}`).join('\n');
  const tracker = new ResolvedErrorTracker();
  tracker.observe('src/invoice.ts', [], 0, `${clean}${padding}\n`);
  tracker.observe('src/invoice.ts', [cannotFind], 100, `${broken}${padding}\n`);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 4, inserted: 'subtotal', removed: 7 }, 5000);
  const later = `${clean}${padding}\nexport const unrelated = 1;\n`;
  assert.deepEqual(tracker.observe('src/invoice.ts', [], 100 + MIN_ERROR_AGE_MS, later), []);
});

test('a break undone next to a new line keeps only the new line as the fix', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/invoice.ts', [], 0, clean);
  tracker.observe('src/invoice.ts', [cannotFind], 10, broken);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 4, inserted: 'subtotal', removed: 7 }, 20);
  const withNote = clean.replace('vat(subtotal);\n', 'vat(subtotal);\n  // VAT on the rounded subtotal\n');
  const [outcome] = tracker.observe('src/invoice.ts', [], 30, withNote);
  assert.equal(
    describeResolvedError(outcome).split('\n').slice(1).join('\n'),
    'Fix (src/invoice.ts:6):\n+   // VAT on the rounded subtotal',
  );
});

test('an error shorter-lived than the documented minimum is no outcome even when really fixed', () => {
  assert.equal(MIN_ERROR_AGE_MS, 10_000);
  assert.deepEqual(run(fixedForReal, MIN_ERROR_AGE_MS - 1), []);
  assert.equal(run(fixedForReal, MIN_ERROR_AGE_MS).length, 1);
});

test('the text of the previous snapshot counts as the pre-error text when the file never was error-free', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  const other: ObservedError = { ...cannotFind, line: 1, message: "Cannot find module './vat'.", code: '2307' };
  tracker.observe('src/invoice.ts', [other], 0, clean);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 4, inserted: 'subtotl', removed: 8 }, 10);
  tracker.observe('src/invoice.ts', [other, cannotFind], 20, broken);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 4, inserted: 'subtotal', removed: 7 }, 30);
  assert.deepEqual(tracker.observe('src/invoice.ts', [other], 40, clean), [], 'an undo');
});

test('a file restored after a rename is a revert: the error-free text follows the rename', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.noteCleanText('billing.ts', clean);
  // The new name's errors are seen before the editor reports the rename.
  tracker.observe('ledger.ts', [{ ...cannotFind, file: 'ledger.ts' }], 0, broken);
  tracker.rename('billing.ts', 'ledger.ts');
  tracker.recordEdit({ file: 'ledger.ts', line: 1, inserted: clean, removed: broken.length }, 10);
  assert.deepEqual(tracker.observe('ledger.ts', [], 20, clean), []);
});

test('with the erroring file edited but its text not at hand, nothing is remembered (nothing to show)', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/invoice.ts', [cannotFind], 0, broken);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 5, inserted: 'x', removed: 1 }, 10);
  assert.deepEqual(tracker.observe('src/invoice.ts', [], 20), []);
});

test('a fix far from the error is found as the nearest hunk; a long fix is cut', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  const lines = Array.from({ length: 60 }, (_, i) => `const v${i} = ${i};`);
  const error: ObservedError = { file: 'a.ts', line: 50, message: "Cannot find name 'helper'." };
  tracker.observe('a.ts', [error], 0, lines.join('\n'));
  const added = Array.from({ length: 15 }, (_, i) => `  step${i}();`);
  const now = [...lines.slice(0, 2), 'function helper() {', ...added, '}', ...lines.slice(2)];
  tracker.recordEdit({ file: 'a.ts', line: 3, inserted: now.slice(2, 19).join('\n'), removed: 0 }, 10);
  const [outcome] = tracker.observe('a.ts', [], 20, now.join('\n'));
  const text = describeResolvedError(outcome);
  assert.match(text, /^Fix \(a\.ts:3-19\):\n\+ function helper\(\) \{\n/m);
  assert.match(text, /\+ … 5 more lines$/);
  assert.deepEqual(fixedLines(outcome), { from: 3, to: 19 });
});

test('an error that vanishes with no edit (closed file, restarted server) is not an outcome', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/invoice.ts', [cannotFind], 0, broken);
  assert.deepEqual(tracker.observe('src/invoice.ts', [], 10_000, fixedForReal), []);
});

test('an error that only moves to another line is still open, its age counted from the first sighting', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/invoice.ts', [cannotFind], 0, broken);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 1, inserted: '// comment\n', removed: 0 }, 100);
  assert.deepEqual(tracker.observe('src/invoice.ts', [{ ...cannotFind, line: 6 }], 200, `// comment\n${broken}`), []);
  const resolved = tracker.observe('src/invoice.ts', [], 300, `// comment\n${fixedForReal}`);
  assert.equal(resolved.length, 1);
  assert.equal(resolved[0].firstSeen, 0);
});

test('a cascade of vanished errors yields at most maxPerSnapshot outcomes', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0, maxPerSnapshot: 2 });
  const errors = [1, 2, 3, 4].map((n) => ({ file: 'b.py', line: n, message: `error ${n}` }));
  tracker.observe('b.py', errors, 0, 'a\nb\nc\nd\n');
  tracker.recordEdit({ file: 'b.py', line: 2, inserted: 'B', removed: 1 }, 50);
  assert.equal(tracker.observe('b.py', [], 100, 'a\nB\nc\nd\n').length, 2);
});

test('a fix in another file counts when the erroring file was not edited', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/invoice.ts', [cannotFind], 0, broken);
  tracker.recordEdit({ file: 'src/lib.ts', line: 3, inserted: 'export const subtotal = 1;', removed: 0 }, 10);
  const [outcome] = tracker.observe('src/invoice.ts', [], 20, broken);
  assert.equal(outcome.edits[0].file, 'src/lib.ts');
  assert.equal(fixedLines(outcome), null);
  assert.match(describeResolvedError(outcome), /Fixed in src\/lib\.ts:3: added "export const subtotal = 1;"\.$/);
});

test('forget drops a file without reporting its errors', () => {
  const tracker = new ResolvedErrorTracker({ minAgeMs: 0 });
  tracker.observe('src/invoice.ts', [cannotFind], 0, broken);
  tracker.recordEdit({ file: 'src/invoice.ts', line: 5, inserted: 'x', removed: 0 }, 10);
  tracker.forget('src/invoice.ts');
  assert.deepEqual(tracker.observe('src/invoice.ts', [], 20, fixedForReal), []);
});
