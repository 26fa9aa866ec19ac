import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';

import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { daemonAddressOf } from '../../src/daemon/daemonAddress.ts';
import { daemonDataDirs, isRunning, openWindow, waitUntil } from './daemonHarness.ts';

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
  const dataDirs = daemonDataDirs('fml-compile-cache-');
  const fresh = (): string => dataDirs.fresh();
  after(() => dataDirs.removeAll());

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
