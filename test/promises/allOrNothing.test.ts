import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { callOk, connectClient } from '../support/testCore.ts';

/**
 * All-or-nothing import (SECURITY.md "Import that half-lands", issue 13.2), with a failure injected
 * at EACH write the import makes, not at one chosen step: for k = 1..n the store fails its k-th
 * write (STORAGE_FULL), once. Every time the tool must report the error, and the database must
 * hold nothing of the user it was importing for: no memory, no session, no working item, no row
 * of any table.
 */

/** The store's write methods (src/core/ports/memoryStore.ts): the ones a fault can hit mid-import. */
const WRITES = new Set([
  'insertMemory',
  'insertUnlessDuplicate',
  'changeMemory',
  'forgetMemories',
  'restoreMemories',
  'commitWorking',
  'hardDeleteMemory',
  'deleteUser',
  'recordAccess',
]);

/** A store that fails its k-th write once (k = 0: never), and counts the writes it was asked for. */
class FaultyWrites {
  failAt = 0;
  writes = 0;
  wrap(store: MemoryStore): MemoryStore {
    return new Proxy(store, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        if (typeof name !== 'string' || !WRITES.has(name)) return value.bind(target);
        return async (...args: unknown[]) => {
          this.writes += 1;
          if (this.writes === this.failAt)
            throw new MemoryError('STORAGE_FULL', `injected failure at write ${this.writes} (${name})`);
          return value.apply(target, args);
        };
      },
    });
  }
}

const at = '2026-01-01T00:00:00Z';
const memory = (id: string, content: string) => ({
  memory_id: id,
  content,
  memory_category: 'semantic',
  memory_subtype: 'project',
  created_at: at,
});
const session = (id: string, tokens: number) => ({
  session_id: id,
  max_tokens: 8000,
  total_tokens: tokens,
  eviction_policy: 'hybrid',
  next_sequence: 3,
  created_at: at,
  last_activity: at,
});
const item = (id: string, sessionId: string, sequence: number, content: string) => ({
  item_id: id,
  session_id: sessionId,
  content_type: 'message',
  content,
  token_count: 6,
  sequence_num: sequence,
  pinned: false,
  relevance_score: 1,
  created_at: at,
  last_accessed: at,
  metadata: {},
});
/** Three memories and two sessions of two items each: several writes of each kind. */
const EXPORT = {
  format: 'firebolt-memory-layer/export',
  format_version: 1,
  memories: [
    memory('mem_a', 'The API runs on port 8080'),
    memory('mem_b', 'Deploys go through ArgoCD'),
    memory('mem_c', 'The parser is hand-written'),
  ],
  sessions: [session('sess_one', 12), session('sess_two', 12)],
  working_items: [
    item('wmi_1', 'sess_one', 1, 'We use pnpm in this repo'),
    item('wmi_2', 'sess_one', 2, 'Tests run with node --test'),
    item('wmi_3', 'sess_two', 1, 'Lint before every commit'),
    item('wmi_4', 'sess_two', 2, 'Releases are tagged on main'),
  ],
};

describe('import_memories is all or nothing with a failure at each of its writes', () => {
  let dataDir: string;
  let core: MemoryCore;
  let client: Client;
  let close: () => Promise<void>;
  let db: DatabaseSync;
  let rawStore: SqliteMemoryStore;
  const faults = new FaultyWrites();

  /**
   * Rows of every table that belong to the user, but for the change feed: it records ids and
   * operations (an insert, then its undo) so that other processes drop what they cached, and is
   * trimmed on its own; it holds no content.
   */
  const rowsOf = (user: string): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const { name } of db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string }>) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as Array<{ name: string }>).map(
        (row) => row.name,
      );
      if (!columns.includes('user_id') || name === 'change_log') continue;
      const { count } = db.prepare(`SELECT count(*) AS count FROM "${name}" WHERE user_id = ?`).get(user) as {
        count: number;
      };
      if (count > 0) counts[name] = count;
    }
    return counts;
  };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fml-all-or-nothing-'));
    const store = new SqliteMemoryStore({ dataDir });
    rawStore = store;
    core = new MemoryCore({ store: faults.wrap(store) });
    await core.open();
    db = (store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    ({ client, close } = await connectClient({ core, adminTools: true }));
  });
  after(async () => {
    await close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports the file whole when nothing fails, and counts the writes that takes', async () => {
    faults.failAt = 0;
    faults.writes = 0;
    const result = await callOk<{
      memories_imported: number;
      sessions_imported: number;
      working_items_imported: number;
    }>(client, 'import_memories', { user_id: 'whole', data: EXPORT });
    assert.deepEqual([result.memories_imported, result.sessions_imported, result.working_items_imported], [3, 2, 4]);
    assert.ok(faults.writes >= 4, `only ${faults.writes} writes`);
    assert.equal(rowsOf('whole').long_term_memories, 3);
  });

  /** Imports for `user` with the store failing its k-th write; the error text of the tool's answer. */
  async function importFailingAt(k: number, user: string): Promise<string> {
    faults.writes = 0;
    faults.failAt = k;
    try {
      const result = await client.callTool({ name: 'import_memories', arguments: { user_id: user, data: EXPORT } });
      const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
      assert.ok(result.isError, `failure at write ${k} reported as success: ${text.slice(0, 200)}`);
      return text;
    } finally {
      faults.failAt = 0;
    }
  }

  async function writesOfOneImport(): Promise<number> {
    faults.failAt = 0;
    faults.writes = 0;
    await callOk(client, 'import_memories', { user_id: `counting_${Math.random()}`, data: EXPORT });
    return faults.writes;
  }

  it('for each k, a failure at the k-th write is reported and leaves no memory and no working item', async () => {
    const total = await writesOfOneImport();
    for (let k = 1; k <= total; k++) {
      const user = `fails_at_${k}`;
      assert.match(await importFailingAt(k, user), /^(STORAGE_FULL|PROVIDER_ERROR):/, `write ${k} of ${total}`);
      const { session_contexts: _sessions, ...rest } = rowsOf(user);
      assert.deepEqual(rest, {}, `failure at write ${k} of ${total} left rows behind`);
      // The undo is no erasure: the same import, retried, stores every memory under the same ids.
      faults.failAt = 0;
      const retried = await callOk<{ memories_imported: number }>(client, 'import_memories', {
        user_id: user,
        data: EXPORT,
      });
      assert.equal(retried.memories_imported, 3, `the retry after a failure at write ${k} stored less`);
    }
  });

  it('for each k, a failure at the k-th write leaves no session either', async () => {
    const total = await writesOfOneImport();
    for (let k = 1; k <= total; k++) {
      const user = `no_session_at_${k}`;
      await importFailingAt(k, user);
      assert.deepEqual(rowsOf(user), {}, `failure at write ${k} of ${total} left rows behind`);
      assert.deepEqual(await core.listSessions(user), [], `failure at write ${k} left a session`);
    }
  });

  it('forget_all_user_memories with a failure at each of its writes reports it, and a retry erases everything', async () => {
    const seed = async (user: string) => {
      faults.failAt = 0;
      await callOk(client, 'import_memories', { user_id: user, data: EXPORT });
    };
    await seed('erase_count');
    faults.writes = 0;
    await callOk(client, 'forget_all_user_memories', { user_id: 'erase_count', confirmation: 'CONFIRM_DELETE_ALL' });
    const total = faults.writes;
    assert.ok(total >= 1);
    for (let k = 1; k <= total; k++) {
      const user = `erase_fails_at_${k}`;
      await seed(user);
      faults.writes = 0;
      faults.failAt = k;
      const failed = await client.callTool({
        name: 'forget_all_user_memories',
        arguments: { user_id: user, confirmation: 'CONFIRM_DELETE_ALL' },
      });
      faults.failAt = 0;
      const text = (failed.content as Array<{ text?: string }>)[0]?.text ?? '';
      assert.ok(failed.isError, `failure at write ${k} of ${total} reported as success: ${text.slice(0, 200)}`);
      await callOk(client, 'forget_all_user_memories', { user_id: user, confirmation: 'CONFIRM_DELETE_ALL' });
      assert.deepEqual(rowsOf(user), {}, `after a failure at write ${k} and a retry, rows are left`);
    }
  });

  it('consolidation with a failure at each of its writes leaves either the originals or the merged memory, never both or neither', async () => {
    const originals = ['Run npm test before pushing to main', 'Always run npm test before pushing to main branch'];
    const seed = async (user: string): Promise<string[]> => {
      faults.failAt = 0;
      const ids: string[] = [];
      for (const content of originals)
        ids.push(
          (
            await callOk<{ memory_id: string }>(client, 'store_memory', {
              user_id: user,
              content,
              memory_category: 'procedural',
              memory_subtype: 'workflow',
            })
          ).memory_id,
        );
      return ids;
    };
    const maintain = (user: string) =>
      client.callTool({
        name: 'run_daily_maintenance',
        arguments: { user_id: user, decay: { enabled: false }, consolidation: { threshold: 0.7 } },
      });
    await seed('merge_count');
    faults.writes = 0;
    const counted = await maintain('merge_count');
    assert.ok(!counted.isError);
    const total = faults.writes;
    assert.ok(total >= 3, `consolidation made ${total} writes`);
    for (let k = 1; k <= total; k++) {
      const user = `merge_fails_at_${k}`;
      const ids = await seed(user);
      faults.writes = 0;
      faults.failAt = k;
      const result = await maintain(user);
      faults.failAt = 0;
      const active = (await listAllMemories(rawStore, { user_id: user })).items.filter((memory) => !memory.deleted_at);
      const merged = active.filter((memory) => Array.isArray(memory.metadata.consolidated_from));
      const originalsActive = active.filter((memory) => ids.includes(memory.memory_id));
      const state =
        merged.length === 0 && originalsActive.length === 2
          ? 'originals'
          : merged.length === 1 && originalsActive.length === 0
            ? 'merged'
            : `partial: ${merged.length} merged and ${originalsActive.length} originals active`;
      assert.doesNotMatch(state, /^partial/, `failure at write ${k} of ${total}: ${state}`);
      if (state === 'originals') {
        const text = JSON.stringify(result.isError ? result.content : result.structuredContent);
        assert.ok(result.isError || /error|fail/i.test(text), `failure at write ${k} swallowed: ${text.slice(0, 300)}`);
      }
    }
  });

  for (const [tool, extra] of [
    ['clear_working_memory', {}],
    ['checkpoint_working_memory', { force: true }],
  ] as const) {
    it(`${tool} with a failure at each of its writes reports it and clears nothing; a retry keeps every statement once`, async () => {
      const statements = [
        'We decided the importer retries each batch three times',
        'Remember: the staging database is called zebracorn_main',
        'The release checklist needs a changelog entry before tagging',
      ];
      const seed = async (user: string): Promise<string> => {
        faults.failAt = 0;
        const session = (await callOk<{ session_id: string }>(client, 'init_session', { user_id: user })).session_id;
        for (const content of statements)
          await callOk(client, 'add_to_working_memory', {
            user_id: user,
            session_id: session,
            content,
            content_type: 'message',
          });
        return session;
      };
      const clear = (user: string, session: string) =>
        client.callTool({ name: tool, arguments: { user_id: user, session_id: session, ...extra } });
      const items = async (user: string, session: string): Promise<string[]> =>
        (
          await callOk<{ items: Array<{ content: string }> }>(client, 'get_working_memory', {
            user_id: user,
            session_id: session,
          })
        ).items.map((item) => item.content);
      const kept = async (user: string): Promise<string[]> =>
        (await listAllMemories(rawStore, { user_id: user })).items
          .filter((memory) => !memory.deleted_at)
          .map((memory) => memory.content)
          .sort();
      const counting = await seed(`${tool}_count`);
      faults.writes = 0;
      assert.ok(!(await clear(`${tool}_count`, counting)).isError);
      const total = faults.writes;
      const whole = await kept(`${tool}_count`);
      // A clear keeps every statement; a checkpoint the worthwhile ones (the checklist line is not).
      assert.equal(
        whole.length,
        tool === 'clear_working_memory' ? statements.length : 2,
        `kept without a failure: ${whole}`,
      );
      assert.ok(total >= 2, `${tool} made ${total} writes`);
      for (let k = 1; k <= total; k++) {
        const user = `${tool}_fails_at_${k}`;
        const session = await seed(user);
        faults.writes = 0;
        faults.failAt = k;
        const failed = await clear(user, session);
        faults.failAt = 0;
        const text = (failed.content as Array<{ text?: string }>)[0]?.text ?? '';
        assert.ok(failed.isError, `failure at write ${k} of ${total} reported as success: ${text.slice(0, 200)}`);
        assert.deepEqual(
          (await items(user, session)).sort(),
          [...statements].sort(),
          `failure at write ${k} of ${total}: the session lost items that were not all saved`,
        );
        assert.ok(!(await clear(user, session)).isError, `retry after a failure at write ${k}`);
        assert.deepEqual(await items(user, session), []);
        assert.deepEqual(await kept(user), whole, `after a failure at write ${k} and a retry, each statement once`);
      }
    });
  }
});
