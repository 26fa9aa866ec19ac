import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';

/**
 * Two SQLite stores on one fresh data directory, as two processes sharing a memory file: what one
 * commits, the other must read. Both are closed and the directory removed after `work`, whatever
 * it throws.
 */
export async function withTwoStores(
  work: (mine: SqliteMemoryStore, theirs: SqliteMemoryStore, dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-two-stores-'));
  const mine = new SqliteMemoryStore({ dataDir });
  const theirs = new SqliteMemoryStore({ dataDir });
  try {
    await mine.open();
    await theirs.open();
    await work(mine, theirs, dataDir);
  } finally {
    await theirs.close();
    await mine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
