import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { daemonAddressOf } from '../../src/daemon/daemonAddress.ts';
import { daemonPid, isRunning, openWindow, waitUntil } from './daemonHarness.ts';

/** Starts the memory process, waits for it to exit after its grace period, returns its log. */
async function startAndStop(dataDir: string, env: Record<string, string>): Promise<string> {
  const window = await openWindow(dataDir, { graceMs: 500, env });
  const pid = window.opened.pid;
  window.connection.close();
  await waitUntil(() => !isRunning(pid), 'the memory process to exit');
  return readFileSync(join(dataDir, 'daemon', 'daemon.log'), 'utf8');
}

const cacheFiles = (directory: string): string[] =>
  readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((entry) =>
    statSync(join(directory, entry)).isFile(),
  );

describe('the memory process keeps its compiled code between starts', () => {
  const dirs: string[] = [];
  const fresh = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'fml-compile-cache-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) {
      const pid = daemonPid(dir);
      if (pid !== null && isRunning(pid)) process.kill(pid, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'writes the cache in its private socket directory, and the next start, of any data directory, uses it',
    { timeout: 60_000 },
    async () => {
      const first = fresh();
      const debug = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
      await startAndStop(first, debug);
      const { socketDir } = daemonAddressOf(first);
      assert.ok(socketDir !== null);
      const cache = join(socketDir, 'compile-cache');
      assert.equal(statSync(cache).mode & 0o777, 0o700, 'only its user reads the cache');
      assert.ok(cacheFiles(cache).length > 0, 'the compiled bundle was saved at exit');
      assert.throws(() => statSync(join(first, 'daemon', 'compile-cache')), { code: 'ENOENT' }, 'nothing in the data');
      const log = await startAndStop(fresh(), debug);
      assert.match(log, /V8 code cache for CommonJS .*cli\.js was accepted/u, 'the next start reused it');
    },
  );

  it('leaves a compile cache the user chose alone', { timeout: 60_000 }, async () => {
    const dataDir = fresh();
    const own = fresh();
    const log = await startAndStop(dataDir, { NODE_COMPILE_CACHE: own, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    assert.ok(cacheFiles(own).length > 0, 'the user’s directory got the cache');
    assert.doesNotMatch(log, /fml-[^/]+\/compile-cache/u, 'not the socket directory’s');
  });
});
