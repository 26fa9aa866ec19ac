import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { firstWideCharacter, latin1Source } from '../../scripts/latin1Sources.mjs';

/*
 * V8 keeps a bundle's whole source in the heap, one byte a character only when every character is
 * below 256: a single `…` left in a comment made the CLI bundle a 9.4 MB string in every memory
 * process instead of 4.7 MB (docs/benchmarks.md, issue 31's cold-start memory).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** What a script's body returns, run as a function. */
const run = (source: string): unknown => new Function(source)() as unknown;

describe('Latin-1 sources for the Node bundles', () => {
  it('escapes wide characters in comments, strings, templates and regular expressions without changing what the code does', () => {
    const source = [
      '// a comment … with “quotes” and an escaped \\… one',
      '/** ─ block comment ✓ 👋 */',
      "const plain = 'dash — and ellipsis …';",
      'const escapedInString = "\\…";',
      'const cooked = `curly ’${1}’ 👋`;',
      'const bullets = /^(?:•{3,}|…)$/.test("•••") && /^(?:•{3,}|…)$/.test("…");',
      'const classed = /[“”’]/g;',
      'const identity = /\\…/.test("…");',
      "const astralU = /^👋+$/u.test('👋👋') && /^[👋✓]$/u.test('👋') && !/^[👋✓]$/u.test('\\ud83d');",
      "const astral = /^👋$/.test('👋');",
      "const viaRegExp = new RegExp('[“”]').test('”');",
      'return [plain, escapedInString, cooked, bullets, "’x“".replace(classed, ""), identity, astralU, astral, viaRegExp];',
    ].join('\n');
    const escaped = latin1Source(source, 'example.js');
    assert.equal(firstWideCharacter(escaped), null, 'nothing above U+00FF is left');
    assert.deepEqual(run(escaped), run(source));
    assert.ok(escaped.includes('\\u2026'), 'the ellipsis is written as an escape');
  });

  it('leaves a source without wide characters as it is, Latin-1 letters included', () => {
    const source = "const name = 'Tipus d\\'unió invàlid'; // café";
    assert.equal(latin1Source(source, 'plain.ts'), source);
  });

  it('refuses a wide character in a tagged template, whose raw text no escape keeps', () => {
    const source = 'const a = 1;\nconst pattern = String.raw`“${a}”`;\n';
    assert.throws(
      () => latin1Source(source, 'tagged.ts'),
      /tagged\.ts:2: U\+201C is in the raw text of a tagged template/,
    );
    // An untagged template's cooked value is the same with the escape.
    assert.doesNotThrow(() => latin1Source('const text = `“x”`;', 'cooked.ts'));
  });

  it('refuses a raw line separator, which ends a line outside strings', () => {
    assert.throws(() => latin1Source('// a comment\u2028const x = 1;', 'separator.js'), /U\+2028 is a line terminator/);
  });

  it('reports the first wide character of a text by line and column', () => {
    assert.equal(firstWideCharacter('ab\ncd…'), '2:3 U+2026');
    assert.equal(firstWideCharacter('é ü ÿ'), null);
  });

  it('built the CLI and extension bundles with no character above U+00FF', () => {
    for (const bundle of ['dist/cli.js', 'dist/extension.js']) {
      const text = readFileSync(`${root}/${bundle}`, 'utf8');
      assert.equal(firstWideCharacter(text), null, `${bundle} is Latin-1 throughout`);
    }
  });
});
