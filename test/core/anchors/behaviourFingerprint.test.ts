import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anchorFor } from '../../../src/core/anchors/anchorChecker.ts';
import { codeTokens, compareTokens, LEGACY_SCHEME, SKETCH_VERSION } from '../../../src/core/anchors/codeFingerprint.ts';

/**
 * The fingerprint notices behaviour, not layout (issue #32 point 4): each kind of behaviour change
 * makes anchored code stale even when it touches one token, each kind of reformat keeps it fresh.
 */
const VAT = `export function computeTotal(lines: Line[], region = 'EU'): number {
  const net = lines.filter((line) => line.quantity > 0).reduce((sum, line) => sum + line.price * line.quantity, 0);
  if (net <= 0) return 0;
  return Math.round(net * (1 + 0.2) * 100) / 100;
}`;

const STALE: ReadonlyArray<[kind: string, code: string]> = [
  ['a called function (Math.round → Math.floor)', VAT.replace('Math.round', 'Math.floor')],
  ['an arithmetic operator (+ → -)', VAT.replace('sum + line', 'sum - line')],
  ['a comparison operator (<= → <)', VAT.replace('net <= 0', 'net < 0')],
  ['a number literal (0.2 → 0.19)', VAT.replace('0.2', '0.19')],
  ['a string literal (EU → UK)', VAT.replace("'EU'", "'UK'")],
  ['an identifier (quantity → count)', VAT.replace('line.quantity', 'line.count')],
  ['two arguments swapped (same tokens, other order)', VAT.replace('(sum, line)', '(line, sum)')],
  ['a keyword (const → let)', VAT.replace('const net', 'let net')],
  ['a statement removed', VAT.replace('  if (net <= 0) return 0;\n', '')],
  ['a call added', VAT.replace('  if (net', '  audit(lines);\n  if (net')],
  ['a property access replaced by a call', VAT.replace('line.price', 'line.price()')],
];

const FRESH: ReadonlyArray<[kind: string, code: string]> = [
  ['indentation and spaces', VAT.replace(/\n {2}/g, '\n\t\t').replace(' = ', '   =   ')],
  [
    'line breaks (arguments wrapped)',
    VAT.replace('(lines: Line[], region = ', '(\n  lines: Line[],\n  region = ').replace("'EU')", "'EU'\n)"),
  ],
  ['a trailing comma', VAT.replace("region = 'EU')", "region = 'EU',)")],
  ['semicolons dropped', VAT.replace(/;/g, '')],
  ['quote style', VAT.replace("'EU'", '"EU"')],
  ['comments added and changed', VAT.replace('  if (net', '  // no negative totals\n  if (net /* guard */')],
  ['a lone arrow parameter without parentheses', VAT.replace('((line) =>', '(line =>')],
  ['Windows line endings and blank lines', VAT.replace(/\n/g, '\r\n\r\n')],
  ['a number spelled another way (0.2 → 0.20)', VAT.replace('0.2)', '0.20)')],
];

describe('behaviour-aware fingerprint of anchored code', () => {
  const anchor = anchorFor('src/invoice.ts', VAT, { start: 1, end: 5 }, { name: 'computeTotal', kind: 'function' });

  it('new anchors carry the current sketch version', () => {
    assert.equal(anchor.sketch, SKETCH_VERSION);
    assert.equal(anchor.size, codeTokens(VAT).length);
  });

  for (const [kind, code] of STALE) {
    it(`stale: ${kind}`, () => {
      assert.notEqual(code, VAT, 'the case changes the code');
      const result = compareTokens(anchor, codeTokens(code));
      assert.equal(result.exact, false);
      assert.ok(result.similarity < 1, `similarity ${result.similarity}`);
    });
  }

  for (const [kind, code] of FRESH) {
    it(`fresh: ${kind}`, () => {
      assert.notEqual(code, VAT, 'the case changes the text');
      assert.deepEqual(compareTokens(anchor, codeTokens(code)), { exact: true, similarity: 1 });
    });
  }

  it('fresh: a lone arrow parameter with or without parentheses, escaped quotes or the other quotes, 1_000 or 1000', () => {
    const before = anchorFor('a.ts', `const f = (x) => say('it\\'s', 1_000, 0XFF, 1.50);`, { start: 1, end: 1 });
    const after = `const f = x => say("it's", 1000, 0xff, 1.5)`;
    assert.equal(compareTokens(before, codeTokens(after)).exact, true);
  });

  it('the one-token change the old token-overlap score kept fresh (similarity above 0.8) is stale now', () => {
    const floor = codeTokens(VAT.replace('Math.round', 'Math.floor'));
    const result = compareTokens(anchor, floor);
    assert.ok(result.similarity >= 0.8, `the sketches are close (${result.similarity}), as the old rule saw them`);
    assert.equal(result.exact, false);
  });

  it('version-1 anchors are compared by version-1 rules: unchanged is exact, any token change is not', () => {
    const tokens = LEGACY_SCHEME.tokens(VAT);
    const legacy = {
      fingerprint: LEGACY_SCHEME.fingerprint(tokens),
      tokens: LEGACY_SCHEME.sketch(tokens),
      size: tokens.length,
    };
    assert.deepEqual(compareTokens(legacy, LEGACY_SCHEME.tokens(VAT.replace(/;/g, ''))), {
      exact: true,
      similarity: 1,
    });
    const changed = compareTokens(legacy, LEGACY_SCHEME.tokens(VAT.replace('Math.round', 'Math.floor')));
    assert.equal(changed.exact, false);
    assert.ok(changed.similarity > 0.8 && changed.similarity < 1);
    // Its literal-bearing sketch dropped: still answered, by the fingerprint alone.
    assert.deepEqual(compareTokens({ ...legacy, tokens: [] }, LEGACY_SCHEME.tokens(VAT)), {
      exact: true,
      similarity: 1,
    });
    assert.deepEqual(compareTokens({ ...legacy, tokens: [] }, LEGACY_SCHEME.tokens(VAT.replace('0.2', '0.3'))), {
      exact: false,
      similarity: 0,
    });
  });
});
