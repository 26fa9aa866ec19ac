import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { StdioServer } from './support/stdioServer.ts';

/** The stored row as the file has it, read by a process of its own. */
function storedRow(
  dataDir: string,
  memoryId: string,
): { metadata: Record<string, unknown>; deleted_at: string | null; version: number } {
  const db = new DatabaseSync(join(dataDir, 'memory.db'), { readOnly: true });
  try {
    // SELECT *: the same check reads a file of a build before versions, to show what it lost.
    const row = db.prepare('SELECT * FROM long_term_memories WHERE memory_id = ?').get(memoryId) as {
      metadata: string;
      deleted_at: string | null;
      version?: number;
    };
    return {
      metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      deleted_at: row.deleted_at,
      version: Number(row.version ?? 0),
    };
  } finally {
    db.close();
  }
}

async function storeOne(server: StdioServer, content: string): Promise<string> {
  const stored = await server.callTool('store_memory', {
    user_id: 'racer',
    content,
    memory_category: 'semantic',
    memory_subtype: 'project',
  });
  assert.ok(stored.ok, JSON.stringify(stored.error));
  return String(stored.output!.memory_id);
}

/** `count` update_memory calls, each adding its own metadata key, sent at once and spread over the servers. */
async function concurrentMerges(servers: readonly StdioServer[], memoryId: string, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, index) => `key_${index}`);
  const answers = await Promise.all(
    keys.map((key, index) =>
      servers[index % servers.length].callTool('update_memory', {
        user_id: 'racer',
        memory_id: memoryId,
        metadata: { [key]: index },
      }),
    ),
  );
  for (const answer of answers) assert.ok(answer.ok, JSON.stringify(answer.error));
  return keys;
}

describe('concurrent changes through real MCP servers over stdio', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-concurrent-changes-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  for (const processes of [1, 3]) {
    for (const count of [20, 200]) {
      it(
        `${count} concurrent update_memory metadata merges over ${processes} process(es): every key is kept`,
        { timeout: 180_000 },
        async () => {
          const servers = Array.from({ length: processes }, () => new StdioServer(dataDir));
          try {
            await Promise.all(servers.map((server) => server.initialize()));
            const memoryId = await storeOne(
              servers[0],
              `A note every agent annotates at once, run ${processes}x${count}.`,
            );
            const keys = await concurrentMerges(servers, memoryId, count);
            const row = storedRow(dataDir, memoryId);
            const lost = keys.filter((key) => !(key in row.metadata));
            assert.deepEqual(lost, [], `${lost.length} of ${count} acknowledged keys were lost`);
            assert.ok(row.version >= 1 + count, `version ${row.version} counts every change`);
          } finally {
            await Promise.all(servers.map((server) => server.kill('SIGTERM')));
          }
        },
      );
    }
  }

  it(
    'forget_memory racing updates from three processes: forgotten at the end, out of recall, until restored',
    { timeout: 180_000 },
    async () => {
      const servers = Array.from({ length: 3 }, () => new StdioServer(dataDir));
      try {
        await Promise.all(servers.map((server) => server.initialize()));
        for (let attempt = 0; attempt < 8; attempt++) {
          const memoryId = await storeOne(
            servers[0],
            `The okapi${attempt} rollout note, forgotten while agents edit it.`,
          );
          const racing = Array.from({ length: 12 }, (_, index) =>
            servers[index % 3].callTool('update_memory', {
              user_id: 'racer',
              memory_id: memoryId,
              metadata: { [`edit_${index}`]: index },
              ...(index % 4 === 0 ? { importance: 0.9 } : {}),
            }),
          );
          const forget = servers[1].callTool('forget_memory', { user_id: 'racer', memory_id: memoryId });
          const answers = await Promise.all([forget, ...racing]);
          assert.ok(answers[0].ok, JSON.stringify(answers[0].error));
          for (const answer of answers.slice(1)) {
            // An edit that lands after the forget is refused, never applied to the forgotten row.
            if (!answer.ok) assert.equal(answer.error!.code, 'MEMORY_NOT_FOUND');
          }
          assert.notEqual(storedRow(dataDir, memoryId).deleted_at, null, `attempt ${attempt}: the forget stands`);
          const recalled = await servers[2].callTool('recall_memories', {
            user_id: 'racer',
            query: `okapi${attempt} rollout`,
          });
          assert.ok(recalled.ok, JSON.stringify(recalled.error));
          const ids = (recalled.output!.memories as Array<{ memory_id: string }>).map((memory) => memory.memory_id);
          assert.ok(!ids.includes(memoryId), `attempt ${attempt}: a forgotten memory is not recalled`);
        }
      } finally {
        await Promise.all(servers.map((server) => server.kill('SIGTERM')));
      }
    },
  );

  for (const processes of [1, 3]) {
    it(
      `20 concurrent identical store_memory calls over ${processes} process(es): one memory, the others name it`,
      { timeout: 180_000 },
      async () => {
        const servers = Array.from({ length: processes }, () => new StdioServer(dataDir));
        try {
          await Promise.all(servers.map((server) => server.initialize()));
          const content = `The capybara${processes} release checklist lives in the ops wiki under Releases.`;
          const answers = await Promise.all(
            Array.from({ length: 20 }, (_, index) =>
              servers[index % processes].callTool('store_memory', {
                user_id: 'duplicator',
                content,
                memory_category: 'semantic',
                memory_subtype: 'project',
              }),
            ),
          );
          for (const answer of answers) assert.ok(answer.ok, JSON.stringify(answer.error));
          const db = new DatabaseSync(join(dataDir, 'memory.db'), { readOnly: true });
          let ids: string[];
          try {
            ids = (
              db
                .prepare(
                  'SELECT memory_id FROM long_term_memories WHERE user_id = ? AND content = ? AND deleted_at IS NULL',
                )
                .all('duplicator', content) as Array<{ memory_id: string }>
            ).map((row) => row.memory_id);
          } finally {
            db.close();
          }
          assert.equal(ids.length, 1, `${ids.length} memories of one text were stored by 20 identical calls`);
          // Every call was acknowledged with the one memory: stored, or skipped as its duplicate.
          const named = answers.map((answer) => String(answer.output!.memory_id));
          assert.deepEqual([...new Set(named)], ids);
          const skipped = answers.filter(
            (answer) =>
              (answer.output!.similar_existing as { action?: string } | undefined)?.action === 'skipped_duplicate',
          );
          assert.equal(skipped.length, 19);
        } finally {
          await Promise.all(servers.map((server) => server.kill('SIGTERM')));
        }
      },
    );
  }

  it(
    'forget_memory takes many ids in one call; a stale expected_version is CONFLICT and the newer content stays',
    { timeout: 120_000 },
    async () => {
      const server = new StdioServer(dataDir);
      try {
        await server.initialize();
        const ids = [
          await storeOne(server, 'Batch one: the walrus cache is warmed nightly.'),
          await storeOne(server, 'Batch two: the heron queue drains hourly.'),
        ];
        const batch = await server.callTool('forget_memory', { user_id: 'racer', memory_ids: [...ids, 'mem_absent'] });
        assert.ok(batch.ok, JSON.stringify(batch.error));
        assert.deepEqual([...(batch.output!.forgotten as string[])].sort(), [...ids].sort());
        assert.deepEqual(batch.output!.not_found, ['mem_absent']);
        for (const id of ids) assert.notEqual(storedRow(dataDir, id).deleted_at, null);

        const memoryId = await storeOne(server, 'The original wording of the ibis deploy rule.');
        const newer = await server.callTool('update_memory', {
          user_id: 'racer',
          memory_id: memoryId,
          content: 'The newer wording of the ibis deploy rule.',
          expected_version: 1,
        });
        assert.ok(newer.ok, JSON.stringify(newer.error));
        const stale = await server.callTool('update_memory', {
          user_id: 'racer',
          memory_id: memoryId,
          content: 'A stale rewrite of the original wording.',
          expected_version: 1,
        });
        assert.equal(stale.ok, false);
        assert.equal(stale.error!.code, 'CONFLICT');
        const db = new DatabaseSync(join(dataDir, 'memory.db'), { readOnly: true });
        try {
          const row = db.prepare('SELECT content FROM long_term_memories WHERE memory_id = ?').get(memoryId) as {
            content: string;
          };
          assert.equal(row.content, 'The newer wording of the ibis deploy rule.');
        } finally {
          db.close();
        }
      } finally {
        await server.kill('SIGTERM');
      }
    },
  );
});
