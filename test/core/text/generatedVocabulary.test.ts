import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'fml-vocabulary-'));

/** Runs a generator with --out into a temporary file and returns what it wrote. */
function regenerate(script: string, name: string): string {
  const target = join(out, basename(name));
  execFileSync(process.execPath, [join(root, 'scripts', script), '--out', target], { cwd: root, stdio: 'pipe' });
  return readFileSync(target, 'utf8');
}

/**
 * Every vocabulary table the query expansion ships is generated from a public source by a script in
 * the repo (issue 30): running the script again gives the committed file byte for byte, so nobody
 * edits a table by hand, and the source and its licence are named in the file's header.
 */
describe('generated vocabulary tables', { timeout: 120_000 }, () => {
  after(() => rmSync(out, { recursive: true, force: true }));

  for (const [script, file, licence] of [
    ['build-wordnet-synonyms.mjs', 'wordnetSynonyms.ts', /Princeton University; licence/],
    ['build-language-aliases.mjs', 'languageAliases.ts', /MIT licence/],
    ['build-language-classes.mjs', 'languageClasses.ts', /MIT licence[\s\S]*Princeton University; licence/],
    // From the committed extract of Debian's archive (scripts/sources/), not from this machine's apt lists.
    ['build-software-categories.mjs', 'softwareCategories.ts', /Debian Free Software Guidelines/],
    // Clipped words ("doc" / documentation) from the same extract's package names and descriptions.
    ['build-clippings.mjs', 'clippings.ts', /Debian Free Software Guidelines[\s\S]*Princeton University; licence/],
    // The stems of the tables' words (issue 31): regenerated whenever the stemmer or a table changes.
    [
      'build-table-stems.mjs',
      'tableStems.ts',
      /Princeton University; licence[\s\S]*MIT licence[\s\S]*Debian Free Software Guidelines/,
    ],
    // The vocabulary's index for query expansion (issue 31): regenerated whenever a table, a stem or the indexing changes.
    [
      'build-vocabulary-index.mjs',
      '../../retrieval/vocabularyIndexTable.ts',
      /MIT licence[\s\S]*Debian Free Software Guidelines[\s\S]*Princeton University; licence/,
    ],
  ] as const) {
    it(`${file} is what ${script} generates, with its source's licence`, () => {
      const committed = readFileSync(join(root, 'src/core/text/vocabulary', file), 'utf8');
      // The header: every comment line above the table.
      assert.match(committed.slice(0, committed.indexOf('export ')), licence);
      assert.ok(regenerate(script, file) === committed, `${file} differs from what ${script} generates`);
    });
  }
});
