import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { copyStore } from '../../src/stores/copy/copyStore.ts';
import type { CopyCheckpointState } from '../../src/stores/copy/copyStore.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import {
  MODEL,
  embedding,
  iso,
  makeAccess,
  makeMemory,
  makeSession,
  makeWorkingItem,
  randomUnitVector,
  seededRandom,
} from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';

const run = promisify(execFile);

/** Two users: embedded, deleted and superseded memories, a session with items, access-log rows. */
async function seed(store: SqliteMemoryStore): Promise<void> {
  const random = seededRandom(11);
  for (const user of ['alice', 'bob']) {
    const memories = Array.from({ length: 25 }, (_, i) =>
      makeMemory(user, {
        content: `${user} note ${i}`,
        created_at: iso(i),
        embedding_model: i % 2 === 0 ? MODEL : null,
        deleted_at: i === 3 ? iso(30) : null,
      }),
    );
    for (const [i, memory] of memories.entries())
      await store.insertMemory(memory, i % 2 === 0 ? embedding(randomUnitVector(8, random)) : null);
    const session = makeSession(user);
    await store.commitWorking({
      session,
      upsert: [
        makeWorkingItem(session, 1, { content: 'open file a.ts' }),
        makeWorkingItem(session, 2, { content: 'error in b.ts' }),
      ],
      delete: [],
    });
    await store.recordAccess([
      makeAccess(memories[0], { accessed_at: iso(40) }),
      makeAccess(memories[0], { accessed_at: iso(41) }),
      makeAccess(memories[5], { accessed_at: iso(42) }),
    ]);
  }
}

async function remoteRowCount(url: string, database: string): Promise<{ rows: number; distinct: number }> {
  const client = new FireboltQueryClient({ kind: 'core', url, database });
  try {
    const { rows } = await client.query('SELECT COUNT(*) AS n, COUNT(DISTINCT memory_id) AS d FROM fml_memories');
    return { rows: Number(rows[0].n), distinct: Number(rows[0].d) };
  } finally {
    client.close();
  }
}

describe('copyStore and fml migrate --to firebolt', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-migrate-'));
  let server: FireboltTestServer;

  before(async () => {
    server = await startFireboltTestServer();
    const store = new SqliteMemoryStore({ dataDir });
    await store.open();
    await seed(store);
    await store.close();
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes an interrupted copy from its checkpoint and copies nothing twice', async () => {
    const source = new SqliteMemoryStore({ dataDir });
    const target = new FireboltStore({ kind: 'core', url: server.url, database: 'resume' });
    await source.open();
    await target.open();
    try {
      let saved: CopyCheckpointState | null = null;
      const checkpoint = {
        load: async () => (saved ? structuredClone(saved) : null),
        save: async (state: CopyCheckpointState) => void (saved = structuredClone(state)),
      };
      const controller = new AbortController();
      const users = await source.listUserIds();
      assert.deepEqual(users, ['alice', 'bob']);
      const first = await copyStore(source, target, {
        users,
        checkpoint,
        batchSize: 10,
        onProgress: (p) => {
          if (p.phase === 'memories' && p.done >= 10) controller.abort();
        },
        signal: controller.signal,
      });
      assert.equal(first.cancelled, true);
      assert.deepEqual((saved as CopyCheckpointState | null)?.current, { user_id: 'alice', memoriesDone: 10 });

      const second = await copyStore(source, target, { users, checkpoint, batchSize: 10 });
      assert.equal(second.verified, true, JSON.stringify(second.users));
      assert.equal(second.users[0].memories_copied + 10, 25);
      assert.deepEqual(await remoteRowCount(server.url, 'resume'), { rows: 50, distinct: 50 });

      const [copied] = await target.getMemories('alice', [
        (await source.listMemories({ filter: { user_id: 'alice' }, sort: 'access_count', offset: 0, limit: 1 }))
          .items[0].memory_id,
      ]);
      assert.equal(copied.access_count, 2, 'access counters equal the source, not bumped twice');

      const third = await copyStore(source, target, { users, batchSize: 10 });
      assert.deepEqual(
        third.users.map((u) => [u.memories_copied, u.access_log_copied]),
        [
          [0, 0],
          [0, 0],
        ],
      );
      assert.equal(third.verified, true);
    } finally {
      await source.close();
      await target.close();
    }
  });

  it('fml migrate prints progress, verifies per user, and is a no-op the second time', async () => {
    const node = process.execPath;
    const env = { ...process.env, FIREBOLT_CORE_URL: server.url, FIREBOLT_DATABASE: 'cli' };
    const args = [
      'src/cli/main.ts',
      'migrate',
      '--to',
      'firebolt',
      '--backend',
      'firebolt-core',
      '--data-dir',
      dataDir,
    ];
    const first = await run(node, args, { env, timeout: 60_000 });
    assert.match(first.stdout, /Copying 2 user\(s\)/);
    assert.match(
      first.stdout,
      /alice: 25 memories copied, 0 already there, 1 sessions, 3 access-log rows; counts match/,
    );
    assert.match(first.stdout, /Migration verified\./);
    const second = await run(node, args, { env, timeout: 60_000 });
    assert.match(second.stdout, /Migration verified\./);
    assert.deepEqual(await remoteRowCount(server.url, 'cli'), { rows: 50, distinct: 50 });
    const stats = new FireboltStore({ kind: 'core', url: server.url, database: 'cli' });
    await stats.open();
    try {
      const alice = await stats.stats('alice');
      assert.deepEqual(
        [alice.memories, alice.deleted, alice.sessions, alice.working_items, alice.access_log_entries, alice.embedded],
        [24, 1, 1, 2, 3, 13],
      );
    } finally {
      await stats.close();
    }
  });

  it('exits non-zero with a configuration error when cloud credentials are missing', async () => {
    const env = { ...process.env, FIREBOLT_CLIENT_ID: '', FIREBOLT_CLIENT_SECRET: '' };
    await assert.rejects(
      run(
        process.execPath,
        ['src/cli/main.ts', 'migrate', '--to', 'firebolt', '--backend', 'firebolt-cloud', '--data-dir', dataDir],
        { env, timeout: 60_000 },
      ),
      (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 1);
        assert.match(
          error.stderr ?? '',
          /CONFIGURATION_ERROR: The firebolt-cloud backend needs clientId \(FIREBOLT_CLIENT_ID\)/,
        );
        return true;
      },
    );
  });
});
