import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RELEVANCE_FLOOR } from '../../src/core/coreDeps.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

interface Recalled {
  memories: Array<{ memory_id: string; why_matched: string }>;
  retrieval_breakdown: {
    abstained: boolean;
    relevance_floor: number;
    below_floor: number;
    best_below_floor?: { memory_id: string; relevance_score: number } | null;
    note?: string;
  };
}

/** Abstention, keywords and alternate queries as an agent sees them over MCP. */
describe('recall abstention and search keys over MCP', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  const user = 'mcp-floor';

  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('answers a question about an unstored topic with an empty list and says so', async () => {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: user,
      content: 'Install a retry budget of three attempts on the payment webhook.',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
    });
    const answer = await callOk<Recalled>(client, 'recall_memories', {
      user_id: user,
      query: 'how do I install the Bluetooth printer',
    });
    assert.deepEqual(answer.memories, []);
    assert.equal(answer.retrieval_breakdown.abstained, true);
    assert.equal(answer.retrieval_breakdown.relevance_floor, RELEVANCE_FLOOR);
    assert.equal(answer.retrieval_breakdown.best_below_floor?.memory_id, stored.memory_id);
    assert.match(answer.retrieval_breakdown.note ?? '', /Memory has nothing on this/);
    // Nothing was returned, so nothing was used: the access log is untouched.
    await test.core.flushAccessLog();
    const [record] = await test.core.getMemories(user, [stored.memory_id]);
    assert.equal(record.access_count, 0);
  });

  it("answers a question that is only a time with that time's memories, and one about an empty time with nothing", async () => {
    const timeUser = 'mcp-window';
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: timeUser,
      content: 'Rolled back the search service after the index migration failed.',
      memory_category: 'episodic',
      memory_subtype: 'event',
      event_time: `${yesterday}T12:00:00Z`,
    });
    await callOk(client, 'store_memory', {
      user_id: timeUser,
      content: 'Code review checklist: tests, migrations, feature flags.',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      event_time: '2020-01-15T09:00:00Z',
    });
    const answer = await callOk<Recalled & { memories: Array<{ score_breakdown: { signals: string[] } }> }>(
      client,
      'recall_memories',
      { user_id: timeUser, query: 'what happened yesterday?', explain: true },
    );
    assert.deepEqual(
      answer.memories.map((memory) => memory.memory_id),
      [stored.memory_id],
    );
    assert.ok(answer.memories[0].score_breakdown.signals.includes('time'));
    assert.match(answer.memories[0].why_matched, /from the time asked about/);
    const empty = await callOk<Recalled>(client, 'recall_memories', {
      user_id: timeUser,
      query: 'what did we do in the first half of March 2019?',
    });
    assert.deepEqual(empty.memories, []);
    assert.equal(empty.retrieval_breakdown.abstained, true);
  });

  it('get_relevant_context leaves out long-term memories under the floor', async () => {
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: user });
    const context = await callOk<{
      context_items: Array<{ source: string }>;
      retrieval_stats: { relevance_floor: number; long_term_below_floor: number };
    }>(client, 'get_relevant_context', {
      user_id: user,
      session_id,
      query: 'how do I install the Bluetooth printer',
      token_budget: 500,
    });
    assert.equal(context.context_items.filter((item) => item.source === 'long_term').length, 0);
    assert.equal(context.retrieval_stats.relevance_floor, RELEVANCE_FLOOR);
    assert.ok(context.retrieval_stats.long_term_below_floor >= 1);
  });

  it('stores keywords as search keys and finds the memory by them', async () => {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: user,
      content: 'Raised ulimit -n to 65536 on the ETL worker.',
      memory_category: 'episodic',
      memory_subtype: 'outcome',
      keywords: ['too many open files error'],
    });
    const [record] = await test.core.getMemories(user, [stored.memory_id]);
    assert.deepEqual(record.metadata.search_keys, ['too many open files error']);
    const answer = await callOk<Recalled>(client, 'recall_memories', { user_id: user, query: 'too many open files' });
    assert.equal(answer.memories[0]?.memory_id, stored.memory_id);
  });

  it('accepts alternate_queries and matches through them', async () => {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: user,
      content: 'Nightly invoices are rendered by the billing worker.',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const without = await callOk<Recalled>(client, 'recall_memories', {
      user_id: user,
      query: 'who produces the monthly statements',
    });
    assert.ok(!without.memories.some((memory) => memory.memory_id === stored.memory_id));
    const withAlternates = await callOk<Recalled>(client, 'recall_memories', {
      user_id: user,
      query: 'who produces the monthly statements',
      alternate_queries: ['billing worker renders invoices'],
      explain: true,
    });
    assert.equal(withAlternates.memories[0]?.memory_id, stored.memory_id);
    assert.match(withAlternates.memories[0].why_matched, /alternate query/);
  });

  it('describes the new fields in one sentence each', async () => {
    const { tools } = await client.listTools();
    const recall = tools.find((tool) => tool.name === 'recall_memories')!;
    const store = tools.find((tool) => tool.name === 'store_memory')!;
    const describe = (tool: typeof recall, field: string) =>
      (tool.inputSchema.properties?.[field] as { description?: string }).description ?? '';
    assert.match(describe(recall, 'alternate_queries'), /Other wordings/);
    assert.match(describe(store, 'keywords'), /Other words to find it by/);
    assert.match(describe(recall, 'min_similarity'), /final score/);
  });
});
