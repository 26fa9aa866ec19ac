import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { StdioServer } from './support/stdioServer.ts';
import { seededRandom } from '../contract/fixtures.ts';

const KILLS = 20;
const USER = 'kill-user';

describe('SIGKILL during a stream of writes (built CLI over stdio)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-kill-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    `keeps every acknowledged write across ${KILLS} kills at random points, and the store stays consistent`,
    { timeout: 180_000 },
    async (t) => {
      const random = seededRandom(20_261_122);
      const acknowledged = new Map<string, string>();
      const workingAcknowledged: string[] = [];
      let sent = 0;
      let workingSessionId: string | undefined;
      for (let round = 0; round < KILLS; round++) {
        const server = new StdioServer(dataDir);
        await server.initialize();
        const init = await server.callTool('init_session', {
          user_id: USER,
          ...(workingSessionId ? { session_id: workingSessionId } : {}),
          config: { max_tokens: 200_000 },
        });
        assert.ok(init.ok, JSON.stringify(init.error));
        workingSessionId = String(init.output!.session_id);
        // Several writes in flight at once, so the kill lands inside transactions, not only between them.
        let killed = false;
        const writer = async (lane: number): Promise<void> => {
          while (!killed) {
            const token = `kr${round}x${lane}x${sent++}`;
            const content = `Write ${token} in round ${round}`;
            const answer =
              lane === 0
                ? await server
                    .callTool('add_to_working_memory', {
                      session_id: workingSessionId,
                      content,
                      content_type: 'scratchpad',
                    })
                    .catch(() => null)
                : await server
                    .callTool('store_memory', {
                      user_id: USER,
                      content,
                      memory_category: 'episodic',
                      memory_subtype: 'event',
                    })
                    .catch(() => null);
            if (!answer) return;
            assert.ok(answer.ok, JSON.stringify(answer.error));
            if (lane === 0) workingAcknowledged.push(content);
            else acknowledged.set(String(answer.output!.memory_id), content);
          }
        };
        const before = acknowledged.size;
        const lanes = [0, 1, 2, 3].map((lane) => writer(lane));
        // Kill at a random point after the first write of the round was answered (the server is warm).
        for (let waited = 0; acknowledged.size === before && waited < 15_000; waited += 5)
          await new Promise((resolve) => setTimeout(resolve, 5));
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 250)));
        killed = true;
        const exit = await server.kill('SIGKILL');
        assert.equal((exit as { signal: string }).signal, 'SIGKILL');
        await Promise.all(lanes);
      }
      assert.ok(acknowledged.size >= KILLS, `only ${acknowledged.size} writes were acknowledged`);
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
        const documents = (
          integrity.prepare('SELECT COUNT(*) AS n FROM lexical_documents WHERE user_id = ?').get(USER) as { n: number }
        ).n;
        // A write can commit in the instant before the kill without its answer reaching us: never fewer.
        assert.ok(rows >= acknowledged.size, `${rows} rows < ${acknowledged.size} acknowledged`);
        assert.equal(documents, rows, 'every memory has its full-text document');
      } finally {
        integrity.close();
      }

      // Reopen as a fresh process would: the in-memory indexes rebuild and find acknowledged writes.
      const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
      await core.open();
      try {
        const found = await core.getMemories(USER, [...acknowledged.keys()]);
        assert.equal(found.length, acknowledged.size, 'every acknowledged memory is present');
        for (const memory of found) assert.equal(memory.content, acknowledged.get(memory.memory_id));
        const sample = [...acknowledged.values()].filter((_, index) => index % Math.ceil(acknowledged.size / 15) === 0);
        for (const content of sample) {
          const token = /Write (\S+)/.exec(content)![1];
          const recalled = await core.recall({ user_id: USER, query: token, limit: 3 }, { logAccess: false });
          assert.equal(recalled.memories[0]?.content, content, `full-text index finds ${token}`);
        }
        const working = await core.getWorkingMemory({ session_id: workingSessionId!, token_budget: 200_000 });
        const kept = new Set(working.items.map((item) => item.content));
        for (const content of workingAcknowledged) assert.ok(kept.has(content), `working item kept: ${content}`);
      } finally {
        await core.close();
      }
    },
  );
});
