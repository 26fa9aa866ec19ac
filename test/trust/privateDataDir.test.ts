import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCoreDeps, MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';

const USER = 'private-dir-user';
const SECRET_TEXT = 'the private memory another local account must not read';
const posix = process.platform !== 'win32';

/** Every entry under `dir` with its permission bits. */
function modes(dir: string): Array<{ path: string; mode: number; directory: boolean }> {
  const found = [{ path: dir, mode: statSync(dir).mode & 0o777, directory: true }];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) continue;
    found.push({ path, mode: statSync(path).mode & 0o777, directory: entry.isDirectory() });
  }
  return found;
}

function assertPrivate(dir: string): void {
  const entries = modes(dir);
  assert.ok(
    entries.some((entry) => entry.path.endsWith('memory.db')),
    'the store file exists',
  );
  for (const entry of entries)
    assert.equal(entry.mode, entry.directory ? 0o700 : 0o600, `${entry.path} is ${entry.mode.toString(8)}`);
}

async function openCore(dataDir: string, warnings: string[] = []) {
  const logger = { info: () => {}, warn: (line: string) => warnings.push(line), error: () => {} };
  const options = { store: new SqliteMemoryStore({ dataDir, logger }) };
  const core = new MemoryCore(options, createCoreDeps(options));
  await core.open();
  return core;
}

describe('the data directory is its owner’s alone, whatever the umask (issue 28.4)', { skip: !posix }, () => {
  const roots: string[] = [];
  const originalUmask = process.umask();
  after(() => {
    process.umask(originalUmask);
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  const freshParent = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'fml-private-'));
    roots.push(root);
    // Reachable by others, so only the data directory's own modes keep them out.
    chmodSync(root, 0o755);
    return root;
  };

  for (const umask of [0o022, 0o000]) {
    it(`a new data directory is 0700 and every file in it 0600 under umask ${umask.toString(8).padStart(3, '0')}`, async () => {
      process.umask(umask);
      const dataDir = join(freshParent(), 'data');
      const core = await openCore(dataDir);
      try {
        await core.storeMemory({
          user_id: USER,
          content: SECRET_TEXT,
          memory_category: 'episodic',
          memory_subtype: 'event',
        });
        assert.ok(
          readdirSync(dataDir).some((name) => name.endsWith('-wal')),
          'checked while the WAL exists',
        );
        assertPrivate(dataDir);
      } finally {
        await core.close();
        process.umask(originalUmask);
      }
      assertPrivate(dataDir);
    });
  }

  it('an existing directory left readable by others is tightened when opened, and the log says so once', async () => {
    process.umask(0o022);
    const dataDir = join(freshParent(), 'data');
    const first = await openCore(dataDir);
    await first.storeMemory({
      user_id: USER,
      content: SECRET_TEXT,
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
    await first.close();
    mkdirSync(join(dataDir, 'indexes-old'), { mode: 0o755 });
    for (const entry of modes(dataDir)) chmodSync(entry.path, entry.directory ? 0o755 : 0o644);
    const warnings: string[] = [];
    const again = await openCore(dataDir, warnings);
    try {
      assertPrivate(dataDir);
      const told = warnings.filter((line) => /private to this user/.test(line));
      assert.equal(told.length, 1, `one log line: ${JSON.stringify(warnings)}`);
    } finally {
      await again.close();
      process.umask(originalUmask);
    }
  });

  it(
    'another local account cannot read the store (run as root: a child as uid 65534 gets EACCES)',
    { skip: process.getuid?.() !== 0 ? 'needs root to start a process as another user' : false },
    async () => {
      process.umask(0o022);
      const dataDir = join(freshParent(), 'data');
      const core = await openCore(dataDir);
      try {
        await core.storeMemory({
          user_id: USER,
          content: SECRET_TEXT,
          memory_category: 'episodic',
          memory_subtype: 'event',
        });
      } finally {
        await core.close();
        process.umask(originalUmask);
      }
      const target = join(dataDir, 'memory.db');
      const probe = spawnSync(
        process.execPath,
        [
          '-e',
          `try { require('fs').readFileSync(${JSON.stringify(target)}); console.log('READ') } catch (e) { console.log(e.code) }`,
        ],
        { uid: 65534, gid: 65534, encoding: 'utf8' },
      );
      assert.equal(probe.stdout.trim(), 'EACCES', probe.stderr);
      // The control: the same read as the owner works, so the refusal is the modes', not the probe's.
      const owner = spawnSync(
        process.execPath,
        ['-e', `require('fs').readFileSync(${JSON.stringify(target)}); console.log('READ')`],
        { encoding: 'utf8' },
      );
      assert.equal(owner.stdout.trim(), 'READ', owner.stderr);
    },
  );
});
