import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory, makeSession, makeWorkingItem, newUserId } from '../contract/fixtures.ts';
import { withTempDataDir } from '../support/tempDataDir.ts';

/**
 * Migration 5: every index is a page each commit writes to the WAL, so the file keeps only the
 * indexes some query reads. A user's lexical documents and working items are reached through
 * their memories and sessions instead of an index of their own.
 */
const withDataDir = (work: (dataDir: string) => Promise<void>): Promise<void> =>
  withTempDataDir('fml-write-indexes-', work);

async function opened(dataDir: string): Promise<SqliteMemoryStore> {
  const store = new SqliteMemoryStore({ dataDir, persistedIndexes: false });
  await store.open();
  return store;
}

function withFile<T>(dataDir: string, work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(join(dataDir, 'memory.db'));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** The explicitly created indexes (not the primary keys' own), table by table. */
function indexesOf(db: DatabaseSync): Record<string, string[]> {
  const rows = db
    .prepare(
      "SELECT tbl_name, name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY tbl_name, name",
    )
    .all() as Array<{ tbl_name: string; name: string }>;
  const byTable: Record<string, string[]> = {};
  for (const row of rows) (byTable[row.tbl_name] ??= []).push(row.name);
  return byTable;
}

const CURRENT_INDEXES = {
  embeddings: ['idx_embeddings_user_model'],
  long_term_memories: ['idx_ltm_user_created'],
  memory_access_log: ['idx_access_memory', 'idx_access_user'],
  session_contexts: ['idx_sessions_user_id'],
  working_memory_items: ['idx_wmi_session'],
};

/** Puts the file back to schema 4, as the build before migration 5 left it. */
const BACK_TO_SCHEMA_4 = `
  DROP INDEX idx_sessions_user_id;
  CREATE INDEX idx_ltm_user_importance ON long_term_memories (user_id, deleted_at, importance);
  CREATE INDEX idx_ltm_user_accessed ON long_term_memories (user_id, deleted_at, last_accessed);
  CREATE INDEX idx_lexical_documents_user ON lexical_documents (user_id);
  CREATE INDEX idx_wmi_user ON working_memory_items (user_id);
  CREATE INDEX idx_sessions_user ON session_contexts (user_id, last_activity);
  DELETE FROM schema_version WHERE version >= 5;
`;

describe('the indexes a SQLite store writes', () => {
  it('are only those some query reads', async () => {
    await withDataDir(async (dataDir) => {
      await (await opened(dataDir)).close();
      assert.deepEqual(
        withFile(dataDir, (db) => indexesOf(db)),
        CURRENT_INDEXES,
      );
    });
  });

  it('lose the unread ones when a schema-4 file is opened, its rows kept', async () => {
    await withDataDir(async (dataDir) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'Written before migration five.' });
      const session = makeSession(user);
      const item = makeWorkingItem(session, 1, { content: 'an item of the old schema' });
      const first = await opened(dataDir);
      await first.insertMemory(memory, null);
      await first.commitWorking({ session, upsert: [item], delete: [] });
      await first.close();
      withFile(dataDir, (db) => db.exec(BACK_TO_SCHEMA_4));

      const upgraded = await opened(dataDir);
      try {
        const { versions, indexes } = withFile(dataDir, (db) => ({
          versions: db
            .prepare('SELECT version FROM schema_version ORDER BY version')
            .all()
            .map((row) => row.version),
          indexes: indexesOf(db),
        }));
        assert.deepEqual(versions, [1, 2, 3, 4, 5]);
        assert.deepEqual(indexes, CURRENT_INDEXES);
        assert.deepEqual(await upgraded.getMemories(user, [memory.memory_id]), [memory]);
        assert.deepEqual(await upgraded.listWorkingItems(session.session_id), [item]);
        assert.deepEqual(
          (await upgraded.listSessions(user)).map((listed) => listed.session_id),
          [session.session_id],
        );
        assert.equal((await upgraded.stats(user)).working_items, 1);
      } finally {
        await upgraded.close();
      }
    });
  });

  it('still find every lexical document and working item of a deleted user, and no other user’s', async () => {
    await withDataDir(async (dataDir) => {
      const [gone, kept] = [newUserId(), newUserId()];
      const store = await opened(dataDir);
      try {
        for (const user of [gone, kept]) {
          await store.insertMemory(makeMemory(user, { content: `lexical text of ${user}` }), null);
          await store.insertMemory(makeMemory(user, { content: `more lexical text of ${user}` }), null);
          const session = makeSession(user);
          await store.commitWorking({
            session,
            upsert: [makeWorkingItem(session, 1), makeWorkingItem(session, 2), makeWorkingItem(session, 3)],
            delete: [],
          });
        }
        assert.equal((await store.stats(gone)).working_items, 3);
        const receipt = await store.deleteUser(gone);
        assert.equal(receipt.working_items_deleted, 3);
        assert.equal(receipt.memories_deleted, 2);
        const counts = withFile(dataDir, (db) =>
          Object.fromEntries(
            ['lexical_documents', 'working_memory_items'].flatMap((table) =>
              [gone, kept].map((user) => [
                `${table}:${user === gone ? 'gone' : 'kept'}`,
                Number(
                  (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`).get(user) as { n: number }).n,
                ),
              ]),
            ),
          ),
        );
        assert.deepEqual(counts, {
          'lexical_documents:gone': 0,
          'lexical_documents:kept': 2,
          'working_memory_items:gone': 0,
          'working_memory_items:kept': 3,
        });
        assert.equal((await store.stats(gone)).working_items, 0);
        assert.equal((await store.stats(kept)).working_items, 3);
      } finally {
        await store.close();
      }
    });
  });
});
