import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { daemonDataDirs, isRunning, openWindow, waitUntil } from './daemonHarness.ts';

const USER = 'read-ahead-user';

describe('a memory process reads its persisted index ahead of the first window', () => {
  const dataDirs = daemonDataDirs('fml-read-ahead-');
  after(() => dataDirs.removeAll());

  it(
    'starts reading the newest index file before any window says who it is, and the first recall answers from it',
    { timeout: 90_000 },
    async () => {
      const dataDir = dataDirs.fresh();
      const first = await openWindow(dataDir, { graceMs: 500, userId: USER });
      const stored = await first.core.storeMemory({
        user_id: USER,
        content: 'The quokka deploy freezes on the last Friday of each month',
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      assert.equal((await first.core.recall({ user_id: USER, query: 'quokka freeze' })).memories.length, 1);
      const firstPid = first.opened.pid;
      first.connection.close();
      await waitUntil(() => !isRunning(firstPid), 'the first memory process to exit (it saves the index then)');
      const indexDir = join(dataDir, 'memory.db-indexes');
      const [file] = readdirSync(indexDir).filter((name) => name.endsWith('.fmlidx'));
      assert.ok(file !== undefined, 'the first process saved the index');

      const second = await openWindow(dataDir, { graceMs: 500, userId: USER });
      try {
        const found = await second.core.recall({ user_id: USER, query: 'when does the quokka deploy freeze' });
        assert.deepEqual(
          found.memories.map((memory) => memory.memory_id),
          [stored.memory_id],
        );
      } finally {
        const secondPid = second.opened.pid;
        second.connection.close();
        await waitUntil(() => !isRunning(secondPid), 'the second memory process to exit');
      }
      const log = readFileSync(join(dataDir, 'daemon', 'daemon.log'), 'utf8');
      const secondLines = log.split('\n').filter((line) => line.includes(`[fml-daemon ${second.opened.pid}]`));
      assert.ok(
        secondLines.some((line) => line.includes(`reading ${join(indexDir, file)} ahead of its first load`)),
        `the second process read ahead:\n${secondLines.join('\n')}`,
      );
      assert.ok(
        !secondLines.some((line) => /not usable|rebuilding it from the store/u.test(line)),
        'and loaded that file rather than rebuilding',
      );
    },
  );
});
