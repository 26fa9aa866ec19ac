import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import type { CopyProgress } from '../../src/stores/copy/copyStore.ts';
import { type FireboltTestServer, startFireboltTestServer } from '../support/firebolt-server/server.ts';
import { openWindow, removeDaemonDataDir } from './daemonHarness.ts';

const USER = 'copy-user';

describe('Copy Local Memories to Firebolt runs in the memory process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-daemon-copy-'));
  const serverDir = mkdtempSync(join(tmpdir(), 'fml-daemon-copy-server-'));
  let server: FireboltTestServer;
  before(async () => {
    server = await startFireboltTestServer({ port: 0, dataDir: serverDir });
  });
  after(async () => {
    await server.close();
    await removeDaemonDataDir(dataDir);
    rmSync(serverDir, { recursive: true, force: true });
  });

  it(
    'copies the embedded store into Firebolt with progress, verified, and a second run copies nothing new',
    { timeout: 120_000 },
    async () => {
      const window = await openWindow(dataDir);
      try {
        const ids: string[] = [];
        for (let index = 0; index < 30; index++) {
          ids.push(
            (
              await window.core.storeMemory({
                user_id: USER,
                content: `Release note ${index}: the cache moved to region ${index}`,
                memory_category: 'episodic',
                memory_subtype: 'event',
              })
            ).memory_id,
          );
        }
        const target = { kind: 'firebolt-core' as const, url: server.url, database: 'copied' };
        const progress: CopyProgress[] = [];
        const result = await window.connection.copy(target, USER, { onProgress: (value) => progress.push(value) });
        assert.equal(result.verified, true);
        assert.equal(result.users[0]?.memories_copied, 30);
        assert.ok(
          progress.some((value) => value.phase === 'memories'),
          'progress crossed the socket',
        );
        // What is in Firebolt, read with a store of our own.
        const firebolt = new FireboltStore({ kind: 'core', url: server.url, database: 'copied' });
        await firebolt.open();
        try {
          const copied = await firebolt.getMemories(USER, ids);
          assert.equal(copied.length, 30);
        } finally {
          await firebolt.close();
        }
        const again = await window.connection.copy(target, USER);
        assert.equal(again.users[0]?.memories_copied, 0);
        assert.equal(again.users[0]?.memories_skipped, 30);
      } finally {
        window.connection.close();
      }
    },
  );

  it('a cancelled copy stops in the process and says so', { timeout: 120_000 }, async () => {
    const window = await openWindow(dataDir);
    try {
      const abort = new AbortController();
      abort.abort();
      const result = await window.connection.copy(
        { kind: 'firebolt-core', url: server.url, database: 'cancelled' },
        USER,
        { signal: abort.signal },
      );
      assert.equal(result.cancelled, true);
    } finally {
      window.connection.close();
    }
  });
});
