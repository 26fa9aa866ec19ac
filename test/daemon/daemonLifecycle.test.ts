import assert from 'node:assert/strict';
import { statSync } from 'node:fs';

import { after, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { DaemonConnection } from '../../src/daemon/daemonConnection.ts';
import { readInfo } from '../../src/daemon/daemonLauncher.ts';
import { daemonDataDirs, daemonPid, isRunning, openWindow, sqliteConfig, waitUntil } from './daemonHarness.ts';

const USER = 'daemon-user';

describe('background memory process: one per data directory', () => {
  const dataDirs = daemonDataDirs('fml-daemon-');
  const fresh = (): string => dataDirs.fresh();
  after(() => dataDirs.removeAll());

  it(
    'the first window starts it, the others reuse it, and they share one store and one index',
    { timeout: 60_000 },
    async () => {
      const dataDir = fresh();
      const [a, b, c] = await Promise.all([
        openWindow(dataDir),
        openWindow(dataDir),
        openWindow(dataDir, { config: { defaultProjectId: 'git:example.com/other' } }),
      ]);
      try {
        assert.equal(a.opened.pid, b.opened.pid);
        assert.equal(a.opened.pid, c.opened.pid);
        assert.notEqual(a.opened.pid, process.pid, 'the core runs in another process');
        assert.equal([a, b, c].filter((window) => window.started).length >= 1, true);
        const stored = await a.core.storeMemory({
          user_id: USER,
          content: 'The daemon keeps one index for every window',
          memory_category: 'episodic',
          memory_subtype: 'event',
        });
        const seen = await b.core.getMemory(USER, stored.memory_id);
        assert.equal(seen?.content, 'The daemon keeps one index for every window');
        const recalled = await c.core.recall({ user_id: USER, query: 'daemon index windows', project_id: null });
        assert.ok(recalled.memories.some((memory) => memory.memory_id === stored.memory_id));
        // A window whose first connection raced the process's start retries; the abandoned socket
        // is counted until the process sees it close, so wait for the count to settle at three.
        await waitUntil(async () => (await a.connection.status()).clients === 3, 'three windows connected');
        const status = await a.connection.status();
        assert.equal(status.cores, 2, 'two projects: two cores');
        assert.equal(status.stores, 1, 'one store (and so one set of indexes) under both cores');
      } finally {
        for (const window of [a, b, c]) window.connection.close();
      }
    },
  );

  it(
    'admits only a process that can read the user’s data directory: private socket, secret checked',
    { timeout: 60_000 },
    async () => {
      const dataDir = fresh();
      const window = await openWindow(dataDir);
      try {
        if (process.platform !== 'win32') {
          assert.equal(statSync(window.address.socketDir!).mode & 0o777, 0o700);
          assert.equal(statSync(window.address.socketPath).mode & 0o777, 0o600);
        }
        assert.equal(statSync(window.address.infoFile).mode & 0o777, 0o600);
        const intruder = await DaemonConnection.open(window.address.socketPath);
        await assert.rejects(
          intruder.hello({ secret: 'guessed', config: sqliteConfig(dataDir) }),
          (error: unknown) =>
            MemoryError.is(error, 'UNAUTHORIZED') || (error as { code?: string }).code === 'DAEMON_EXITED',
        );
        await assert.rejects(intruder.call('stats', [USER]));
      } finally {
        window.connection.close();
      }
    },
  );

  it('answers errors as the core’s typed errors', { timeout: 60_000 }, async () => {
    const dataDir = fresh();
    const window = await openWindow(dataDir);
    try {
      await assert.rejects(
        window.core.storeMemory({ user_id: USER, content: '', memory_category: 'episodic', memory_subtype: 'event' }),
        (error: unknown) => MemoryError.is(error, 'INVALID_INPUT'),
      );
      await assert.rejects(window.connection.call('store.close', []), (error: unknown) =>
        MemoryError.is(error, 'INVALID_INPUT'),
      );
    } finally {
      window.connection.close();
    }
  });

  it('events of one window’s writes reach the other windows', { timeout: 60_000 }, async () => {
    const dataDir = fresh();
    const [a, b] = await Promise.all([openWindow(dataDir), openWindow(dataDir)]);
    try {
      const events: string[] = [];
      b.core.onEvent((event) => events.push(event.type));
      await a.core.storeMemory({
        user_id: USER,
        content: 'An event crosses the process boundary',
        memory_category: 'episodic',
        memory_subtype: 'event',
      });
      await waitUntil(() => events.includes('memory'), 'the memory event on the second window');
    } finally {
      a.connection.close();
      b.connection.close();
    }
  });

  it(
    'stays up through a reload (reconnect within the grace period) and stops when the last client has gone for longer',
    { timeout: 60_000 },
    async () => {
      const dataDir = fresh();
      const first = await openWindow(dataDir, { graceMs: 1_500 });
      const pid = first.opened.pid;
      const session = await first.core.initSession({
        user_id: USER,
        session_id: 'win_reload',
        config: { max_tokens: 8000 },
      });
      await first.core.addToWorkingMemory({
        session_id: session.session_id,
        content: 'captured before the reload',
        content_type: 'scratchpad',
      });
      first.connection.close();
      // Only a client that presents the secret is told anything, status included.
      const probe = await DaemonConnection.open(first.address.socketPath);
      await probe.hello({ secret: readInfo(first.address.infoFile)!.secret, config: sqliteConfig(dataDir) });
      await waitUntil(async () => (await probe.status()).clients === 1, 'the daemon to see the window leave');
      assert.equal((await probe.status()).cores, 1, 'the core and its indexes stay open for the grace period');
      probe.close();
      // The reloaded window comes back well inside the grace period: same process, same session.
      const reloaded = await openWindow(dataDir, { graceMs: 1_500 });
      try {
        assert.equal(reloaded.opened.pid, pid);
        const items = await reloaded.core.getWorkingMemory({ session_id: 'win_reload' });
        assert.ok(items.items.some((item) => item.content === 'captured before the reload'));
      } finally {
        reloaded.connection.close();
      }
      await waitUntil(() => !isRunning(pid), 'the idle process to exit after its grace period');
      assert.equal(daemonPid(dataDir), null, 'the info file is removed on a clean stop');
    },
  );

  it('is started again when it died, with the data it had acknowledged', { timeout: 60_000 }, async () => {
    const dataDir = fresh();
    const window = await openWindow(dataDir);
    const stored = await window.core.storeMemory({
      user_id: USER,
      content: 'Survives the memory process being killed',
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
    const closed = new Promise((resolve) => window.connection.onClose(resolve));
    process.kill(window.opened.pid, 'SIGKILL');
    await closed;
    await assert.rejects(
      window.core.stats(USER),
      (error: unknown) => (error as { code?: string }).code === 'DAEMON_EXITED',
    );
    const again = await openWindow(dataDir);
    try {
      assert.notEqual(again.opened.pid, window.opened.pid);
      assert.ok(again.started, 'this window started the replacement');
      assert.equal(
        (await again.core.getMemory(USER, stored.memory_id))?.content,
        'Survives the memory process being killed',
      );
    } finally {
      again.connection.close();
    }
  });
});
