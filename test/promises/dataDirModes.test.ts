import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';

/**
 * SECURITY.md, "Another local account reading the store's files": the data directory is 0700 and
 * every file in it 0600, an existing one tightened when a store opens it. Each permission bit
 * beyond the owner's is tried on its own, on a file, a nested file and a directory: a check that
 * only looks at some bits (others but not group, read but not execute) fails here.
 */
const EXTRA_BITS = [0o040, 0o020, 0o010, 0o004, 0o002, 0o001];
const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe(
  'every permission bit beyond the owner’s is removed when a store opens its directory',
  { skip: process.platform === 'win32' },
  () => {
    const roots: string[] = [];
    after(() => {
      for (const root of roots) rmSync(root, { recursive: true, force: true });
    });

    for (const bit of EXTRA_BITS) {
      const octal = bit.toString(8).padStart(3, '0');
      it(`bit ${octal} is removed from the directory, a subdirectory and the files in both`, async () => {
        const root = mkdtempSync(join(tmpdir(), 'fml-modes-'));
        roots.push(root);
        const dataDir = join(root, 'data');
        const nested = join(dataDir, 'indexes');
        mkdirSync(nested, { recursive: true });
        const files = [join(dataDir, 'http-token'), join(nested, 'user.idx')];
        for (const file of files) writeFileSync(file, 'private');
        for (const file of files) chmodSync(file, 0o600 | bit);
        for (const dir of [nested, dataDir]) chmodSync(dir, 0o700 | bit);

        const store = new SqliteMemoryStore({ dataDir, logger: { info: () => {}, warn: () => {}, error: () => {} } });
        await store.open();
        try {
          for (const dir of [dataDir, nested]) assert.equal(modeOf(dir).toString(8), '700', dir);
          for (const file of [...files, join(dataDir, 'memory.db')])
            assert.equal(modeOf(file).toString(8), '600', file);
        } finally {
          await store.close();
        }
      });
    }
  },
);
