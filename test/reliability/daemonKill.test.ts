import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { daemonAddressOf } from '../../src/daemon/daemonAddress.ts';
import { daemonPid, isRunning, openWindow } from '../daemon/daemonHarness.ts';
import { seededRandom } from '../contract/fixtures.ts';

const KILLS = 8;
const USER = 'daemon-kill-user';

function daemonLogTail(dataDir: string): string {
  const { logFile } = daemonAddressOf(dataDir);
  return existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '(no log)';
}

describe('kill -9 of the background memory process during writes from two windows', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-daemon-kill-'));
  after(() => {
    const pid = daemonPid(dataDir);
    if (pid !== null && isRunning(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `loses nothing acknowledged across ${KILLS} kills, and the next window restarts it`,
    { timeout: 180_000 },
    async (t) => {
      const random = seededRandom(20_261_125);
      const acknowledged = new Map<string, string>();
      const workingAcknowledged: string[] = [];
      const sessionId = 'win_daemon_kill';
      let sent = 0;
      for (let round = 0; round < KILLS; round++) {
        // Two windows on one process: writes from both are in flight when it dies.
        const windows = await Promise.all([openWindow(dataDir), openWindow(dataDir)]).catch((error: unknown) => {
          // The data directory goes with the test: say what the process logged while it is still there.
          throw new Error(`Round ${round}: ${String(error)}\n--- daemon.log ---\n${daemonLogTail(dataDir)}`, {
            cause: error,
          });
        });
        assert.equal(windows[0].opened.pid, windows[1].opened.pid);
        await windows[0].core.initSession({ user_id: USER, session_id: sessionId, config: { max_tokens: 200_000 } });
        let killed = false;
        const writer = async (lane: number): Promise<void> => {
          const { core } = windows[lane % 2]!;
          while (!killed) {
            const content = `Write dk${round}x${lane}x${sent++} in round ${round}`;
            try {
              if (lane === 0) {
                await core.addToWorkingMemory({ session_id: sessionId, content, content_type: 'scratchpad' });
                workingAcknowledged.push(content);
              } else {
                const stored = await core.storeMemory({
                  user_id: USER,
                  content,
                  memory_category: 'episodic',
                  memory_subtype: 'event',
                });
                acknowledged.set(stored.memory_id, content);
              }
            } catch (error) {
              // Only the process dying may fail a write here; its write was never acknowledged.
              assert.equal((error as { code?: string }).code, 'DAEMON_EXITED', String(error));
              return;
            }
          }
        };
        const before = acknowledged.size;
        const lanes = [0, 1, 2, 3].map((lane) => writer(lane));
        while (acknowledged.size === before) await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 200)));
        process.kill(windows[0].opened.pid, 'SIGKILL');
        killed = true;
        await Promise.all(lanes);
      }
      t.diagnostic(
        `${KILLS} kills; ${acknowledged.size} acknowledged stores and ${workingAcknowledged.length} working-memory adds checked`,
      );

      const integrity = new DatabaseSync(join(dataDir, 'memory.db'));
      try {
        assert.equal(
          (integrity.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check,
          'ok',
        );
        const rows = (
          integrity.prepare('SELECT COUNT(*) AS n FROM long_term_memories WHERE user_id = ?').get(USER) as { n: number }
        ).n;
        assert.ok(rows >= acknowledged.size, `${rows} rows < ${acknowledged.size} acknowledged`);
      } finally {
        integrity.close();
      }
      const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
      await core.open();
      try {
        const found = await core.getMemories(USER, [...acknowledged.keys()]);
        assert.equal(found.length, acknowledged.size, 'every acknowledged memory is present');
        for (const memory of found) assert.equal(memory.content, acknowledged.get(memory.memory_id));
        const working = await core.getWorkingMemory({ session_id: sessionId, token_budget: 200_000 });
        const kept = new Set(working.items.map((item) => item.content));
        for (const content of workingAcknowledged) assert.ok(kept.has(content), `working item kept: ${content}`);
      } finally {
        await core.close();
      }
    },
  );
});
