import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { StdioServer } from './support/stdioServer.ts';

const PROCESSES = 3;
const ROUNDS = 25;

describe('several MCP server processes on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-multi-mcp-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    `${PROCESSES} processes mixing long-term and working-memory tools lose and duplicate nothing`,
    { timeout: 120_000 },
    async () => {
      const servers = Array.from({ length: PROCESSES }, () => new StdioServer(dataDir));
      const stored = new Map<string, string>();
      try {
        await Promise.all(servers.map((server) => server.initialize()));
        const working = new Map<string, string[]>();
        await Promise.all(
          servers.map(async (server, process) => {
            // One working-memory session per process, plus a user shared by every process.
            const init = await server.callTool('init_session', {
              user_id: `owner-${process}`,
              config: { max_tokens: 100_000 },
            });
            assert.ok(init.ok, JSON.stringify(init.error));
            const sessionId = String(init.output!.session_id);
            working.set(sessionId, []);
            for (let round = 0; round < ROUNDS; round++) {
              const content = `Shared decision p${process}r${round} token mp${process}x${round}`;
              const [store, add, recall, context, fact] = await Promise.all([
                server.callTool('store_memory', {
                  user_id: 'shared',
                  content,
                  memory_category: 'episodic',
                  memory_subtype: 'decision',
                }),
                server.callTool('add_to_working_memory', {
                  session_id: sessionId,
                  content: `step ${round} of process ${process}`,
                  content_type: 'task_state',
                }),
                server.callTool('recall_memories', {
                  user_id: 'shared',
                  query: `token mp${(process + 1) % PROCESSES}x${round}`,
                  limit: 3,
                }),
                server.callTool('get_relevant_context', {
                  user_id: `owner-${process}`,
                  session_id: sessionId,
                  query: 'which step',
                  token_budget: 500,
                }),
                server.callTool('set_fact', {
                  user_id: 'shared',
                  category: 'preference',
                  key: `editor_${process}`,
                  value: `round ${round}`,
                }),
              ]);
              for (const answer of [store, add, recall, context, fact])
                assert.ok(answer.ok, JSON.stringify(answer.error));
              stored.set(String(store.output!.memory_id), content);
              working.get(sessionId)!.push(`step ${round} of process ${process}`);
            }
          }),
        );

        // Every process sees every other process's writes, exactly once.
        const reader = servers[0];
        for (let process = 0; process < PROCESSES; process++) {
          const recalled = await reader.callTool('recall_memories', {
            user_id: 'shared',
            query: `token mp${process}x${ROUNDS - 1}`,
            limit: 5,
          });
          assert.equal(
            (recalled.output!.memories as Array<{ content: string }>)[0]?.content,
            `Shared decision p${process}r${ROUNDS - 1} token mp${process}x${ROUNDS - 1}`,
          );
        }
        const facts = await servers[1].callTool('get_facts', { user_id: 'shared', category: 'preference' });
        assert.deepEqual(
          (facts.output!.facts as Array<{ key: string; value: string }>)
            .map((fact) => `${fact.key}=${fact.value}`)
            .sort(),
          Array.from({ length: PROCESSES }, (_, p) => `editor_${p}=round ${ROUNDS - 1}`),
        );
        for (const [sessionId, expected] of working) {
          const state = await servers[2].callTool('get_working_memory', { session_id: sessionId });
          assert.deepEqual(
            (state.output!.items as Array<{ content: string }>).map((item) => item.content),
            expected,
            'working memory in order, nothing lost or doubled',
          );
        }
      } finally {
        await Promise.all(servers.map((server) => server.kill('SIGTERM')));
      }

      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      try {
        const rows = db
          .prepare(
            "SELECT memory_id, content FROM long_term_memories WHERE user_id = 'shared' AND memory_subtype = 'decision'",
          )
          .all() as Array<{ memory_id: string; content: string }>;
        assert.equal(rows.length, PROCESSES * ROUNDS);
        assert.equal(new Set(rows.map((row) => row.content)).size, rows.length, 'no duplicated memory');
        assert.deepEqual(
          new Map(rows.map((row) => [row.memory_id, row.content])),
          stored,
          'exactly the acknowledged memories',
        );
        assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
      } finally {
        db.close();
      }
    },
  );
});
