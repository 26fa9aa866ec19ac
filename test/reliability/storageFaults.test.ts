import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { skipUnlessAvailable } from '../support/prerequisites.ts';
import { StdioServer } from './support/stdioServer.ts';

/**
 * Disk full and read-only data directories, through the MCP tools of the built server. Both
 * need real mounts (a 2 MB tmpfs, a read-only bind mount), so they run as root on Linux and
 * report themselves skipped elsewhere; the store-level tests cover the same errors portably.
 */
const skip = skipUnlessAvailable('the storage-fault suite', mountUnavailable());

/** Why tmpfs and bind mounts cannot be made here, or null when they can. */
function mountUnavailable(): string | null {
  if (process.platform !== 'linux') return `needs Linux mounts (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'needs root for mount(8)';
  const probe = mkdtempSync(join(tmpdir(), 'fml-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `mount(8) of a tmpfs failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

function integrityOf(dataDir: string): { check: string; memories: number } {
  const db = new DatabaseSync(join(dataDir, 'memory.db'));
  try {
    return {
      check: (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check,
      memories: (db.prepare('SELECT COUNT(*) AS n FROM long_term_memories').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

const store = (content: string) => ({
  user_id: 'disk',
  content,
  memory_category: 'semantic',
  memory_subtype: 'project',
});

describe('storage faults through the MCP tools', { skip }, () => {
  const root = mkdtempSync(join(tmpdir(), 'fml-storage-faults-'));
  const mounted: string[] = [];
  before(() => chmodSync(root, 0o755));
  after(() => {
    for (const dir of mounted.reverse()) execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'answers STORAGE_FULL on a full disk, keeps earlier memories, and recovers when space returns',
    { timeout: 60_000 },
    async () => {
      const dataDir = join(root, 'full');
      mkdirSync(dataDir);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dataDir]);
      mounted.push(dataDir);
      const server = new StdioServer(dataDir);
      try {
        await server.initialize();
        const acknowledged: string[] = [];
        let failure: { code: string; message: string } | undefined;
        // 60 KB of distinct text per memory: the 2 MB disk fills within a few dozen writes.
        for (let index = 0; index < 200 && !failure; index++) {
          const content =
            `Filler ${index} ${Array.from({ length: 6000 }, (_, word) => `w${index}x${word}`).join(' ')}`.slice(
              0,
              60_000,
            );
          const answer = await server.callTool('store_memory', store(content));
          if (answer.ok) acknowledged.push(String(answer.output!.memory_id));
          else failure = answer.error;
        }
        assert.ok(failure, 'the disk filled up');
        assert.equal(failure.code, 'STORAGE_FULL', JSON.stringify(failure));
        assert.match(failure.message, /full/);
        // Reads keep working on a full disk.
        const recalled = await server.callTool('recall_memories', { user_id: 'disk', query: 'Filler w0x1', limit: 1 });
        assert.ok(recalled.ok, JSON.stringify(recalled.error));

        execFileSync('mount', ['-o', 'remount,size=64m', dataDir]);
        const after = await server.callTool('store_memory', store('Written after space returned'));
        assert.ok(after.ok, `recovers without a restart: ${JSON.stringify(after.error)}`);
        await server.kill('SIGTERM');
        const state = integrityOf(dataDir);
        assert.equal(state.check, 'ok');
        assert.equal(state.memories, acknowledged.length + 1, 'every acknowledged memory and nothing half-written');
      } finally {
        if (server.child.exitCode === null) await server.kill('SIGKILL');
      }
    },
  );

  it(
    'refuses to start on a read-only data directory with a clear STORAGE_READ_ONLY, and starts once writable',
    { timeout: 60_000 },
    async () => {
      const dataDir = join(root, 'readonly');
      mkdirSync(dataDir);
      const seed = new StdioServer(dataDir);
      await seed.initialize();
      assert.ok((await seed.callTool('store_memory', store('Written while writable'))).ok);
      await seed.kill('SIGTERM');
      // Root ignores permission bits, so the server runs as nobody on a directory it cannot write.
      execFileSync('chown', ['-R', '65534:65534', dataDir]);
      chmodSync(dataDir, 0o555);
      chmodSync(join(dataDir, 'memory.db'), 0o444);
      const locked = new StdioServer(dataDir, { uid: 65534, gid: 65534 });
      const exit = await locked.exited;
      assert.equal(exit.code, 1);
      assert.match(locked.stderr, /STORAGE_READ_ONLY: .*read-only|STORAGE_READ_ONLY: .*not writable/);

      chmodSync(dataDir, 0o755);
      chmodSync(join(dataDir, 'memory.db'), 0o644);
      const writable = new StdioServer(dataDir, { uid: 65534, gid: 65534 });
      try {
        await writable.initialize();
        const recalled = await writable.callTool('recall_memories', { user_id: 'disk', query: 'writable', limit: 3 });
        assert.equal((recalled.output!.memories as unknown[]).length, 1);
        assert.ok((await writable.callTool('store_memory', store('Written once writable again'))).ok);
      } finally {
        await writable.kill('SIGTERM');
      }
      assert.deepEqual(integrityOf(dataDir), { check: 'ok', memories: 2 });
    },
  );
});
