import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory, makeSession, makeWorkingItem, newUserId } from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';

/**
 * Both backends decode sessions, working items and memories with the one decoder per record
 * (stores/common/recordRows.ts): a row another writer damaged is PROVIDER_ERROR naming the
 * field, never a record of the wrong type. Each case damages one column through the database
 * itself, reads through a store that has not cached the row, then puts the column back.
 */

type Damage = [table: 'session' | 'item' | 'memory', column: string, value: string | number];

interface Backend {
  /** A store that reads the rows afresh (no cache from an earlier read). */
  freshStore(): Promise<MemoryStore>;
  /** Sets one column of one row to `value` (a literal of the backend's SQL) and returns a function that puts it back. */
  damage(table: Damage[0], column: string, value: string | number, id: string): Promise<() => Promise<void>>;
}

const user = newUserId();
const session = makeSession(user);
const item = makeWorkingItem(session, 0, { pinned: true });
const memory = makeMemory(user, { pinned: true, is_temporal: true });

async function seed(store: MemoryStore): Promise<void> {
  await store.commitWorking({ session: { ...session, next_sequence: 1 }, upsert: [item], delete: [] });
  await store.insertMemory(memory, null);
}

function read(store: MemoryStore, table: Damage[0]): Promise<unknown> {
  if (table === 'session') return store.getSession(session.session_id);
  if (table === 'item') return store.listWorkingItems(session.session_id);
  return store.getMemories(user, [memory.memory_id]);
}

const idOf = { session: session.session_id, item: item.item_id, memory: memory.memory_id };

function damagedRowCases(backend: () => Backend, cases: Damage[]): void {
  for (const [table, column, value] of cases) {
    it(`${table === 'item' ? 'an item' : `a ${table}`} row with ${column} = ${JSON.stringify(value)} is PROVIDER_ERROR naming ${column}`, async () => {
      const restore = await backend().damage(table, column, value, idOf[table]);
      try {
        const store = await backend().freshStore();
        try {
          await assert.rejects(read(store, table), (error: unknown) => {
            assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'), String(error));
            assert.deepEqual(error.details, { field: column });
            return true;
          });
        } finally {
          await store.close();
        }
      } finally {
        await restore();
      }
      // Put back, the row reads as it was written: the damage, not the decoder, made the error.
      const store = await backend().freshStore();
      try {
        const [session, items, memories] = await Promise.all([
          read(store, 'session'),
          read(store, 'item'),
          read(store, 'memory'),
        ]);
        assert.equal((session as { eviction_policy: string }).eviction_policy, 'hybrid');
        assert.deepEqual(items, [item]);
        assert.equal((memories as Array<{ pinned: boolean }>)[0]?.pinned, true);
      } finally {
        await store.close();
      }
    });
  }
}

describe('damaged working-memory rows in SQLite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-damaged-working-'));
  const tables = { session: 'session_contexts', item: 'working_memory_items', memory: 'long_term_memories' };
  const keys = { session: 'session_id', item: 'item_id', memory: 'memory_id' };
  const sqlite: Backend = {
    async freshStore() {
      const store = new SqliteMemoryStore({ dataDir, persistedIndexes: false });
      await store.open();
      return store;
    },
    async damage(table, column, value, id) {
      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      const where = `FROM ${tables[table]} WHERE ${keys[table]} = ?`;
      const original = db.prepare(`SELECT ${column} AS value ${where}`).get(id)?.value;
      assert.ok(original !== undefined, `the ${table} row exists`);
      db.prepare(`UPDATE ${tables[table]} SET ${column} = ? WHERE ${keys[table]} = ?`).run(value, id);
      db.close();
      return async () => {
        const again = new DatabaseSync(join(dataDir, 'memory.db'));
        again.prepare(`UPDATE ${tables[table]} SET ${column} = ? WHERE ${keys[table]} = ?`).run(original, id);
        again.close();
      };
    },
  };
  before(async () => {
    const store = await sqlite.freshStore();
    await seed(store);
    await store.close();
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  damagedRowCases(
    () => sqlite,
    [
      ['session', 'eviction_policy', 'bogus'],
      ['session', 'total_tokens', 'many'],
      ['session', 'config', '[]'],
      ['session', 'config', 'not json'],
      ['item', 'content_type', 'shout'],
      ['item', 'relevance_score', 'high'],
      ['item', 'metadata', '[1]'],
      // SQLite keeps booleans as 0 / 1: any other number used to read as false, unpinning the item.
      ['item', 'pinned', 2],
      ['item', 'pinned', 'yes'],
      ['memory', 'pinned', 2],
      ['memory', 'is_temporal', 7],
    ],
  );
});

describe('damaged working-memory rows in Firebolt', () => {
  let server: Awaited<ReturnType<typeof startFireboltTestServer>>;
  const config = () => ({ kind: 'core' as const, url: server.url, database: 'damaged_rows' });
  const tables = { session: 'fml_sessions', item: 'fml_working_items', memory: 'fml_memories' };
  const keys = { session: 'session_id', item: 'item_id', memory: 'memory_id' };
  const firebolt: Backend = {
    async freshStore() {
      const store = new FireboltStore(config());
      await store.open();
      return store;
    },
    async damage(table, column, value, id) {
      const client = new FireboltQueryClient(config());
      const where = `WHERE ${keys[table]} = '${id}'`;
      const { rows } = await client.query(`SELECT ${column} AS value FROM ${tables[table]} ${where}`);
      const original = rows[0]?.value;
      assert.ok(typeof original === 'string', `the ${table} row holds text in ${column}`);
      await client.query(`UPDATE ${tables[table]} SET ${column} = '${String(value)}' ${where}`);
      return async () => {
        await client.query(`UPDATE ${tables[table]} SET ${column} = '${original.replaceAll("'", "''")}' ${where}`);
        client.close();
      };
    },
  };
  before(async () => {
    server = await startFireboltTestServer({});
    const store = await firebolt.freshStore();
    await seed(store);
    await store.close();
  });
  after(async () => {
    await server.close();
  });

  damagedRowCases(
    () => firebolt,
    [
      ['session', 'eviction_policy', 'bogus'],
      ['session', 'config', '[]'],
      ['session', 'config', 'not json'],
      ['item', 'content_type', 'shout'],
      ['item', 'metadata', '[1]'],
      ['memory', 'memory_subtype', 'not-a-subtype'],
      ['memory', 'metadata', 'not json'],
    ],
  );
});
