import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { OpenedRemoteCore } from '../../src/daemon/daemonLauncher.ts';
import { readInfo } from '../../src/daemon/daemonLauncher.ts';
import { isRunning, openWindow, removeDaemonDataDir, sqliteConfig } from './daemonHarness.ts';
import { rawExchange } from './rawSocket.ts';

const USER = 'hostile-frames-user';

/**
 * Issue 28.1-3: what any local process can send to the memory process's socket before (and
 * after) it knows the secret. One real daemon; the window opened first must keep working.
 */
describe('the memory process against hostile frames on its socket', () => {
  let dataDir: string;
  let window: OpenedRemoteCore;
  let socketPath: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fml-hostile-frames-'));
    window = await openWindow(dataDir);
    socketPath = window.address.socketPath;
    await window.core.storeMemory({
      user_id: USER,
      content: 'The window opened before the attack keeps its memory',
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
  });
  after(async () => {
    window.connection.close();
    await removeDaemonDataDir(dataDir);
  });

  const stillServing = async (): Promise<void> => {
    assert.ok(isRunning(window.opened.pid), 'the memory process is still running');
    const stats = await window.core.stats(USER);
    assert.equal(stats.memories, 1, 'the connected window is still served');
    const another = await openWindow(dataDir);
    try {
      assert.equal(another.opened.pid, window.opened.pid, 'a new window reaches the same process');
    } finally {
      another.connection.close();
    }
  };

  it('a `null` line drops that connection only; the process and other clients go on', { timeout: 60_000 }, async () => {
    const outcome = await rawExchange(socketPath, 'null\n');
    assert.equal(outcome.closedByServer, true, 'the sender is dropped');
    assert.equal(outcome.answered, '', 'nothing is answered to it');
    await stillServing();
  });

  for (const [name, line] of [
    ['a number', '42'],
    ['a string', '"hello"'],
    ['an array', '[{"id":1,"op":"status"}]'],
    ['text that is not JSON', '{"id":1,"op":'],
    ['an unknown op', '{"id":1,"op":"shutdown"}'],
    ['a hello without its fields', '{"id":1,"op":"hello"}'],
    ['a hello whose config is null', '{"id":1,"op":"hello","hello":{"secret":"x","config":null}}'],
    ['a frame without an id', '{"op":"status"}'],
  ] as const) {
    it(`${name} drops that connection only`, { timeout: 60_000 }, async () => {
      const outcome = await rawExchange(socketPath, `${line}\n`);
      assert.equal(outcome.closedByServer, true);
      assert.equal(outcome.answered, '');
      await stillServing();
    });
  }

  it(
    '`status` before hello is refused: the connection is dropped and nothing about the process is told',
    { timeout: 60_000 },
    async () => {
      const outcome = await rawExchange(socketPath, '{"id":1,"op":"status"}\n');
      assert.equal(outcome.closedByServer, true);
      assert.doesNotMatch(outcome.answered, /pid|rssBytes|clients/);
      assert.equal(outcome.answered, '');
      await stillServing();
    },
  );

  it('calls before hello are refused the same way', { timeout: 60_000 }, async () => {
    for (const line of [
      '{"id":1,"op":"call","path":"stats","args":["hostile-frames-user"]}',
      '{"id":1,"op":"endpoint","userId":"u","adminTools":true,"workspaceDir":null}',
      '{"id":1,"op":"cancel","request":1}',
    ]) {
      const outcome = await rawExchange(socketPath, `${line}\n`);
      assert.equal(outcome.closedByServer, true, line);
      assert.equal(outcome.answered, '', line);
    }
    await stillServing();
  });

  it('24 MB without a newline is refused at once, without buffering it', { timeout: 120_000 }, async () => {
    const before = (await window.connection.status()).rssBytes;
    const outcome = await rawExchange(socketPath, Buffer.alloc(24 * 1024 * 1024, 'a'), { settleMs: 3_000 });
    assert.equal(outcome.closedByServer, true, 'the sender is dropped');
    assert.ok(outcome.written < 4 * 1024 * 1024, `dropped after ${outcome.written} bytes, long before 24 MB`);
    assert.ok(outcome.ms < 5_000, `dropped in ${outcome.ms} ms`);
    const afterward = (await window.connection.status()).rssBytes;
    assert.ok(
      afterward - before < 40 * 1024 * 1024,
      `RSS grew by ${Math.round((afterward - before) / 1024 / 1024)} MB`,
    );
    await stillServing();
  });

  it(
    'a hello padded past the small pre-hello limit is refused before its secret is read',
    { timeout: 60_000 },
    async () => {
      const info = readInfo(window.address.infoFile)!;
      const hello = {
        id: 1,
        op: 'hello',
        hello: { secret: info.secret, config: { ...sqliteConfig(dataDir), padding: 'x'.repeat(64 * 1024) } },
      };
      const outcome = await rawExchange(socketPath, `${JSON.stringify(hello)}\n`);
      assert.equal(outcome.closedByServer, true);
      assert.equal(outcome.answered, '');
      await stillServing();
    },
  );

  it('an authenticated client is held to the 8 MB frame limit', { timeout: 120_000 }, async () => {
    const info = readInfo(window.address.infoFile)!;
    const hello = `${JSON.stringify({ id: 1, op: 'hello', hello: { secret: info.secret, config: sqliteConfig(dataDir) } })}\n`;
    const huge = Buffer.concat([Buffer.from(hello), Buffer.alloc(12 * 1024 * 1024, 'b')]);
    // Slow enough that the hello is answered before the limit is passed.
    const outcome = await rawExchange(socketPath, huge, { settleMs: 3_000, chunkBytes: 256 * 1024 });
    assert.match(outcome.answered, /"ok":true/, 'the hello was answered');
    assert.equal(outcome.closedByServer, true, 'the oversized frame dropped the connection');
    await stillServing();
  });
});
