import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { latin1Sources } from '../../scripts/latin1Sources.mjs';
import { lazyRankTable, RANKS_FILE, writeRankTable } from '../../scripts/lazyRankTable.mjs';
import { TiktokenCounter } from '../../src/core/tokens/tokenCounter.ts';

/*
 * The Node bundles leave js-tiktoken's 1.09 MB rank table out and read it from a file beside them
 * at the first token count (scripts/lazyRankTable.mjs): every process start used to read, decode
 * and scan it with the bundle's code (docs/benchmarks.md, "The rank table out of the bundles").
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const node = join(root, 'node_modules', '.bin', 'node');
const packageRanks = (createRequire(import.meta.url)('js-tiktoken/ranks/cl100k_base') as { bpe_ranks: string })
  .bpe_ranks;

const TEXTS = [
  'Deploys go through the blue-green pipeline; rollback is `make rollback ENV=prod`.',
  'Tipus d’unió invàlid — naïve café, 東京, emoji 👋🏽 and tabs\tand\r\nnewlines',
  'x'.repeat(300),
  '',
];

describe('the rank table beside the Node bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fml-ranks-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is left out of the CLI and extension bundles, which read the file the build wrote beside them', () => {
    const middle = packageRanks.slice(500_000, 500_200);
    for (const bundle of ['dist/cli.js', 'dist/extension.js']) {
      const text = readFileSync(join(root, bundle), 'latin1');
      assert.ok(!text.includes(middle), `${bundle} holds no part of the rank table`);
      assert.ok(text.includes(JSON.stringify(RANKS_FILE)), `${bundle} reads ${RANKS_FILE}`);
    }
    assert.equal(
      readFileSync(join(root, 'dist', RANKS_FILE), 'latin1'),
      packageRanks,
      'the file is the table as it is',
    );
  });

  it('counts in a bundle exactly as the sources count, and fails by name when the file is missing', async () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { TiktokenCounter } from ${JSON.stringify(join(root, 'src/core/tokens/tokenCounter.ts'))};
const counter = new TiktokenCounter();
process.stdout.write(JSON.stringify((JSON.parse(process.argv[2]) as string[]).map((text) => counter.count(text))));
`,
    );
    const outfile = join(dir, 'count.cjs');
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      charset: 'ascii',
      logLevel: 'silent',
      plugins: [latin1Sources, lazyRankTable],
    });
    writeRankTable(dir);
    const counted = spawnSync(node, [outfile, JSON.stringify(TEXTS)], { encoding: 'utf8' });
    assert.equal(counted.status, 0, counted.stderr);
    const counter = new TiktokenCounter();
    assert.deepEqual(
      JSON.parse(counted.stdout),
      TEXTS.map((text) => counter.count(text)),
    );
    assert.ok(
      !readFileSync(outfile, 'latin1').includes(packageRanks.slice(0, 200)),
      'the test bundle has no table either',
    );

    unlinkSync(join(dir, RANKS_FILE));
    const missing = spawnSync(node, [outfile, JSON.stringify(['a first count'])], { encoding: 'utf8' });
    assert.notEqual(missing.status, 0, 'no count without the table');
    assert.match(missing.stderr, new RegExp(`ENOENT.*${RANKS_FILE.replace('.', '\\.')}`));
  });

  it('is in the packaged extension (vsce ls), beside the bundles that read it', () => {
    const listed = spawnSync(join(root, 'node_modules', '.bin', 'vsce'), ['ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(listed.status, 0, listed.stderr);
    const files = listed.stdout.split('\n').map((line) => line.trim());
    for (const file of ['dist/cli.js', 'dist/extension.js', `dist/${RANKS_FILE}`])
      assert.ok(files.includes(file), `${file} is packaged: ${files.join(', ')}`);
  });
});
