import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { withoutLocalPaths } from '../../src/mcp/localPaths.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import {
  callError,
  callOk,
  connectClient,
  createTestCore,
  readJsonResource,
  type TestCore,
} from '../support/testCore.ts';

describe('MCP clients never see the data directory (issue 13.9)', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  let db: DatabaseSync;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core, adminTools: true }));
    db = (test.store as SqliteMemoryStore as unknown as { connection: { db: DatabaseSync } }).connection.db;
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('leaves the path out of memory://{user_id}/stats', async () => {
    const result = await client.readResource({ uri: 'memory://alice/stats' });
    const text = JSON.stringify(result);
    assert.ok(!text.includes(test.dataDir), text);
    const stats = await readJsonResource<{ backend: { kind: string; status: string } }>(client, 'memory://alice/stats');
    assert.deepEqual([stats.backend.kind, stats.backend.status], ['sqlite', 'healthy'], 'the rest of the stats stays');
  });

  it('leaves it out of STORAGE_* errors and of get_recent_errors', async () => {
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    db.exec(`PRAGMA max_page_count = ${pages + 1}`);
    try {
      const failure = await client.callTool({
        name: 'store_memory',
        arguments: {
          user_id: 'alice',
          content: `Too big ${'pelican '.repeat(10_000)}`,
          memory_category: 'semantic',
          memory_subtype: 'project',
        },
      });
      const text = JSON.stringify(failure);
      assert.match(text, /STORAGE_FULL/);
      assert.ok(!text.includes(test.dataDir), text);
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'alice',
            content: `Too big ${'gull '.repeat(10_000)}`,
            memory_category: 'semantic',
            memory_subtype: 'project',
          })
        ).code,
        'STORAGE_FULL',
      );
    } finally {
      db.exec('PRAGMA max_page_count = 1073741823');
    }
    const recent = await callOk(client, 'get_recent_errors', { user_id: 'alice' });
    assert.match(JSON.stringify(recent), /STORAGE_FULL/);
    assert.ok(!JSON.stringify(recent).includes(test.dataDir));
  });

  it('replaces POSIX, Windows and UNC paths but not URLs or ids', () => {
    assert.equal(
      withoutLocalPaths('SQLite /home/alice/.firebolt-memory/memory.db (schema 3)'),
      'SQLite <data directory> (schema 3)',
    );
    assert.equal(
      withoutLocalPaths('The disk holding C:\\Users\\alice\\fml is full'),
      'The disk holding <data directory> is full',
    );
    assert.equal(withoutLocalPaths('at \\\\server\\share\\fml.'), 'at <data directory>');
    assert.equal(
      withoutLocalPaths('https://api.firebolt.io/query failed for github.com/bob/app'),
      'https://api.firebolt.io/query failed for github.com/bob/app',
    );
  });
});
