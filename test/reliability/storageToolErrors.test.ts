import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { callError, callOk, connectClient } from '../support/testCore.ts';

/**
 * The same storage errors as storageFaults.test.ts, portable (no root, no mounts): SQLite is
 * made to report SQLITE_FULL with max_page_count and SQLITE_READONLY with query_only, which is
 * exactly what it reports on a full disk or a file that turned read-only.
 */
describe('storage errors reach MCP clients as typed tool errors', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-storage-errors-'));
  const store = new SqliteMemoryStore({ dataDir });
  const core = new MemoryCore({ store });
  let client: Client;
  let close: () => Promise<void>;
  let db: DatabaseSync;

  before(async () => {
    await core.open();
    ({ client, close } = await connectClient({ core }));
    db = (store as unknown as { connection: { db: DatabaseSync } }).connection.db;
  });
  after(async () => {
    await close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const memory = (content: string) => ({
    user_id: 'full',
    content,
    memory_category: 'semantic',
    memory_subtype: 'project',
  });
  const count = () =>
    (db.prepare("SELECT COUNT(*) AS n FROM long_term_memories WHERE user_id = 'full'").get() as { n: number }).n;

  it('STORAGE_FULL: nothing half-written, reads still answer, writes resume when space returns', async () => {
    await callOk(client, 'store_memory', memory('Stored before the disk filled'));
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'full' });
    // Without its free pages (those of indexes a migration dropped), the file can grow by one page only.
    db.exec('VACUUM');
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    db.exec(`PRAGMA max_page_count = ${pages + 1}`);
    try {
      const failure = await callError(client, 'store_memory', memory(`Too big ${'pelican '.repeat(10_000)}`));
      assert.equal(failure.code, 'STORAGE_FULL');
      assert.match(failure.message, /full; free some space/);
      const working = await callError(client, 'add_to_working_memory', {
        session_id,
        content: `scratch ${'gull '.repeat(3_000)}`,
        content_type: 'scratchpad',
      });
      assert.equal(working.code, 'STORAGE_FULL');
      const recalled = await callOk<{ memories: unknown[] }>(client, 'recall_memories', {
        user_id: 'full',
        query: 'disk filled',
      });
      assert.equal(recalled.memories.length, 1);
      assert.equal(count(), 1);
    } finally {
      db.exec('PRAGMA max_page_count = 1073741823');
    }
    await callOk(client, 'store_memory', memory('Stored after space returned'));
    assert.equal(count(), 2);
    assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
  });

  it('STORAGE_READ_ONLY: writes refused with the code, reads answer, writes resume when writable', async () => {
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'full' });
    const before = count();
    db.exec('PRAGMA query_only = 1');
    try {
      assert.equal(
        (await callError(client, 'store_memory', memory('Refused while read-only'))).code,
        'STORAGE_READ_ONLY',
      );
      assert.equal(
        (
          await callError(client, 'add_to_working_memory', {
            session_id,
            content: 'refused scratch',
            content_type: 'scratchpad',
          })
        ).code,
        'STORAGE_READ_ONLY',
      );
      assert.equal(
        (await callError(client, 'set_fact', { user_id: 'full', category: 'identity', key: 'name', value: 'Ro' })).code,
        'STORAGE_READ_ONLY',
      );
      const recalled = await callOk<{ memories: unknown[] }>(client, 'recall_memories', {
        user_id: 'full',
        query: 'stored',
        limit: 5,
      });
      assert.ok(recalled.memories.length >= 1);
    } finally {
      db.exec('PRAGMA query_only = 0');
    }
    assert.equal(count(), before);
    await callOk(client, 'store_memory', memory('Stored once writable again'));
    assert.equal(count(), before + 1);
  });
});
