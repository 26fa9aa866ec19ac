import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/*
 * A fresh memory process pays for every module it initialises before its first answer (docs/benchmarks.md,
 * "A first answer"). zod (about 15 ms and 8 MB of a cold start) serves tool schemas and import
 * validation only, so the process loads it when a tool schema or an import first needs it. The
 * child resolves modules from the sources; the CLI bundle keeps the same laziness, as esbuild
 * initialises a dynamically imported module when the import runs.
 */
const CHILD = fileURLToPath(new URL('../fixtures/startup/recallModules.ts', import.meta.url));

interface Loaded {
  atStart: string[];
  afterRecall: string[];
  afterImport: string[];
}

const isZod = (url: string): boolean => url.includes('/node_modules/zod/');
const isImportReader = (url: string): boolean => url.endsWith('/src/core/portability/exportFileReader.ts');

describe('what a fresh memory process loads before its first answer', () => {
  const loaded = JSON.parse(execFileSync(process.execPath, [CHILD], { encoding: 'utf8', timeout: 60_000 })) as Loaded;

  it('starts, stores and recalls without loading zod or the import file reader', () => {
    assert.ok(
      loaded.atStart.some((url) => url.endsWith('/src/stores/sqlite/sqliteStore.ts')),
      'the store was loaded',
    );
    assert.deepEqual(loaded.atStart.filter(isZod), []);
    assert.deepEqual(loaded.afterRecall.filter(isZod), []);
    assert.deepEqual(loaded.afterRecall.filter(isImportReader), []);
  });

  it('loads them when an import first needs them (so the check above can see them)', () => {
    assert.ok(loaded.afterImport.some(isZod), 'zod was loaded by the import');
    assert.ok(loaded.afterImport.some(isImportReader), 'the file reader was loaded by the import');
  });
});
