import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { HashingTestEmbeddings } from '../../src/embeddings/hashingTestEmbeddings.ts';
import { createResilientFireboltStore } from '../../src/stores/resilient/createResilientStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import { callOk, connectClient, readJsonResource } from '../support/testCore.ts';

/**
 * Dependencies down or slow: the tools answer with what is available and say what is missing
 * (embedding_status, retrieval mode, backend status, summarize_error); nothing acknowledged is
 * lost, and the missing work is caught up later. Latency is measured in benchmarks, not here.
 */
const semantic = (user: string, content: string) => ({
  user_id: user,
  content,
  memory_category: 'semantic',
  memory_subtype: 'project',
});

async function withCore<T>(
  options: {
    embeddings?: HashingTestEmbeddings;
    embeddingTimeoutMs?: number;
    summarize?: (texts: readonly string[]) => Promise<string>;
  },
  work: (core: MemoryCore) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-degraded-'));
  const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }), ...options });
  await core.open();
  try {
    return await work(core);
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('degraded modes', () => {
  it('embedding provider down: stores pending, recalls lexically, reports it, and backfills when it returns', async () => {
    const embeddings = new HashingTestEmbeddings(64);
    await withCore({ embeddings }, async (core) => {
      const { client, close } = await connectClient({ core });
      try {
        embeddings.failing = true;
        const stored = await callOk<{ memory_id: string; embedding_status: string }>(
          client,
          'store_memory',
          semantic('deg', 'The billing service retries webhooks three times'),
        );
        assert.equal(stored.embedding_status, 'pending');
        const recalled = await callOk<{
          memories: Array<{ memory_id: string }>;
          retrieval_breakdown: { mode: string };
        }>(client, 'recall_memories', { user_id: 'deg', query: 'billing webhooks' });
        assert.deepEqual(
          recalled.memories.map((memory) => memory.memory_id),
          [stored.memory_id],
        );
        assert.match(recalled.retrieval_breakdown.mode, /^lexical \(embedding unavailable: .*failing/);
        const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'deg' });
        await callOk(client, 'add_to_working_memory', {
          session_id,
          content: 'Looking at webhook retries',
          content_type: 'task_state',
        });
        const context = await callOk<{ context_items: unknown[]; retrieval_stats: { mode: string } }>(
          client,
          'get_relevant_context',
          { user_id: 'deg', session_id, query: 'billing webhooks', token_budget: 500 },
        );
        assert.ok(context.context_items.length >= 2, 'working memory and the lexical hit');
        assert.match(context.retrieval_stats.mode, /embedding unavailable/);
        const stats = await readJsonResource<{
          embeddings: { failures: number; last_error: { message: string } | null };
        }>(client, 'memory://deg/stats');
        assert.ok(stats.embeddings.failures >= 3);
        assert.match(stats.embeddings.last_error!.message, /failing/);

        embeddings.failing = false;
        assert.equal(await core.backfillEmbeddings(), 1);
        assert.equal(await core.backfillEmbeddings(), 0);
        const hybrid = await callOk<{ retrieval_breakdown: { mode: string } }>(client, 'recall_memories', {
          user_id: 'deg',
          query: 'billing webhooks',
        });
        assert.equal(hybrid.retrieval_breakdown.mode, 'hybrid');
      } finally {
        await close();
      }
    });
  });

  it(
    'embedding provider slow: tools give up on it at the time limit and answer without vectors',
    { timeout: 30_000 },
    async () => {
      const embeddings = new HashingTestEmbeddings(64);
      await withCore({ embeddings, embeddingTimeoutMs: 100 }, async (core) => {
        const { client, close } = await connectClient({ core });
        try {
          embeddings.delayMs = 2_000;
          const stored = await callOk<{ embedding_status: string }>(
            client,
            'store_memory',
            semantic('slow', 'Releases are cut on Thursdays'),
          );
          assert.equal(stored.embedding_status, 'pending');
          const recalled = await callOk<{ memories: unknown[]; retrieval_breakdown: { mode: string } }>(
            client,
            'recall_memories',
            { user_id: 'slow', query: 'releases thursdays' },
          );
          assert.equal(recalled.memories.length, 1);
          assert.match(recalled.retrieval_breakdown.mode, /did not answer within 100 ms/);
          embeddings.delayMs = 0;
          assert.equal(await core.backfillEmbeddings(), 1);
        } finally {
          await close();
        }
      });
    },
  );

  it('summarizer (extraction model) failing: maintenance still consolidates deterministically and says why', async () => {
    const summarize = async (): Promise<string> => {
      throw new Error('summary model returned 503');
    };
    await withCore({ embeddings: new HashingTestEmbeddings(64), summarize }, async (core) => {
      const { client, close } = await connectClient({ core, adminTools: true });
      try {
        // Similar enough to cluster at 0.6, not so similar that store_memory itself deduplicates (0.95).
        for (const content of [
          'The staging database is called fml_stage and lives in eu-west-1',
          'Staging database fml_stage is hosted in the eu-west-1 region',
        ])
          await callOk(client, 'store_memory', semantic('sum', content));
        const report = await callOk<{
          consolidation: { clusters: Array<{ method: string; summarize_error?: string; memory_id: string }> };
        }>(client, 'run_daily_maintenance', { user_id: 'sum', consolidation: { threshold: 0.6 } });
        assert.equal(report.consolidation.clusters.length, 1);
        assert.equal(report.consolidation.clusters[0].method, 'deterministic');
        assert.match(report.consolidation.clusters[0].summarize_error!, /503/);
        const recalled = await callOk<{ memories: Array<{ memory_id: string }> }>(client, 'recall_memories', {
          user_id: 'sum',
          query: 'staging database',
        });
        assert.deepEqual(
          recalled.memories.map((memory) => memory.memory_id),
          [report.consolidation.clusters[0].memory_id],
        );
      } finally {
        await close();
      }
    });
  });

  it(
    'Firebolt paused and embeddings down together: every tool answers from the replica, then converges',
    { timeout: 60_000 },
    async () => {
      const serverDir = mkdtempSync(join(tmpdir(), 'fml-degraded-fb-'));
      const dataDir = mkdtempSync(join(tmpdir(), 'fml-degraded-replica-'));
      const server = await startFireboltTestServer({ port: 0, dataDir: serverDir });
      const store = createResilientFireboltStore({ kind: 'core', url: server.url, database: 'degraded' }, dataDir, {
        client: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, timeoutMs: 500 },
        replay: { baseDelayMs: 20, maxDelayMs: 200 },
      });
      const embeddings = new HashingTestEmbeddings(64);
      const core = new MemoryCore({ store, embeddings });
      await core.open();
      const { client, close } = await connectClient({ core });
      try {
        const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'fb' });
        await server.pause();
        embeddings.failing = true;
        const stored = await callOk<{ memory_id: string; embedding_status: string }>(
          client,
          'store_memory',
          semantic('fb', 'Firebolt paused: the queue worker drains jobs every minute'),
        );
        assert.equal(stored.embedding_status, 'pending');
        await callOk(client, 'add_to_working_memory', {
          session_id,
          content: 'Investigating the queue worker',
          content_type: 'task_state',
        });
        const working = await callOk<{ items: unknown[] }>(client, 'get_working_memory', { session_id });
        assert.equal(working.items.length, 1);
        const recalled = await callOk<{
          memories: Array<{ memory_id: string }>;
          retrieval_breakdown: { mode: string };
        }>(client, 'recall_memories', { user_id: 'fb', query: 'queue worker drains' });
        assert.deepEqual(
          recalled.memories.map((memory) => memory.memory_id),
          [stored.memory_id],
        );
        assert.match(recalled.retrieval_breakdown.mode, /embedding unavailable/);
        const context = await callOk<{ context_items: unknown[] }>(client, 'get_relevant_context', {
          user_id: 'fb',
          session_id,
          query: 'queue worker',
          token_budget: 400,
        });
        assert.ok(context.context_items.length >= 2);
        const stats = await readJsonResource<{ backend: { status: string } }>(client, 'memory://fb/stats');
        assert.equal(stats.backend.status, 'degraded');

        await server.resume();
        embeddings.failing = false;
        const deadline = Date.now() + 20_000;
        while (!(store.online && store.pendingWrites() === 0)) {
          if (Date.now() > deadline) throw new Error('the outbox did not drain within 20 s');
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        assert.equal(await core.backfillEmbeddings(), 1);
        const healthy = await readJsonResource<{ backend: { status: string }; memories: number }>(
          client,
          'memory://fb/stats',
        );
        assert.equal(healthy.backend.status, 'healthy');
        assert.equal(healthy.memories, 1);
        const hybrid = await callOk<{ memories: Array<{ memory_id: string }>; retrieval_breakdown: { mode: string } }>(
          client,
          'recall_memories',
          { user_id: 'fb', query: 'queue worker drains' },
        );
        assert.equal(hybrid.retrieval_breakdown.mode, 'hybrid');
        assert.deepEqual(
          hybrid.memories.map((memory) => memory.memory_id),
          [stored.memory_id],
        );
      } finally {
        await close();
        await core.close();
        await server.close();
        rmSync(serverDir, { recursive: true, force: true });
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
