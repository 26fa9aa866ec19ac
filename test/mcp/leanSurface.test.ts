import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TiktokenCounter } from '../../src/core/tokens/tokenCounter.ts';
import { toolListCost } from '../../src/mcp/toolListCost.ts';
import { ADMIN_TOOLS } from '../../src/mcp/toolCatalog.ts';
import { connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/** Seed 000 §7.1: the eleven tools and their input fields, exactly. */
const SPEC_FIELDS: Record<string, string[]> = {
  init_session: ['session_id', 'user_id', 'org_id', 'config'],
  add_to_working_memory: ['session_id', 'content', 'content_type', 'pinned', 'metadata'],
  get_working_memory: ['session_id', 'token_budget', 'include_types'],
  checkpoint_working_memory: ['session_id', 'force'],
  clear_working_memory: ['session_id', 'checkpoint_first'],
  store_memory: [
    'user_id',
    'content',
    'memory_category',
    'memory_subtype',
    'importance',
    'entities',
    'event_time',
    'metadata',
  ],
  recall_memories: [
    'user_id',
    'query',
    'memory_categories',
    'memory_subtypes',
    'entities',
    'limit',
    'min_similarity',
    'time_range',
    'tags',
    'include_low_confidence',
  ],
  update_memory: ['memory_id', 'user_id', 'content', 'importance', 'metadata'],
  forget_memory: ['memory_id', 'user_id', 'hard_delete'],
  forget_all_user_memories: ['user_id', 'confirmation'],
  get_relevant_context: [
    'session_id',
    'user_id',
    'query',
    'token_budget',
    'query_intent',
    'context_weights',
    'focus_entities',
  ],
};

/** The budget of issue 19: every agent request carries these definitions. */
const DEFINITION_BUDGET = 3000;

/** Memories of the length a coding agent stores (one or two sentences). */
const MEMORIES = [
  'Decision: the orders service uses PostgreSQL 16 because we need JSONB indexes for the line-item queries.',
  'The orders database runs in eu-west-1; read replicas are orders-ro-1 and orders-ro-2 behind pgbouncer.',
  'Migrations for the orders database live in db/migrations and run with `make migrate` before every deploy.',
  'When the orders database connection pool is exhausted, raise PGBOUNCER_POOL_SIZE to 40 and restart pgbouncer.',
  'Alex prefers that database schema changes are reviewed by the data team before they are merged.',
  'The nightly orders database backup goes to s3://acme-backups/orders and is kept for 35 days.',
];

async function listed(test: TestCore, context: Record<string, unknown> = {}) {
  const { client, close } = await connectClient({ core: test.core, ...context });
  try {
    return (await client.listTools()).tools;
  } finally {
    await close();
  }
}

describe('a lean MCP surface', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(async () => {
    await test.cleanup();
  });

  it('offers the spec tools with their exact fields within the definition budget', async () => {
    const tools = await listed(test);
    for (const [name, fields] of Object.entries(SPEC_FIELDS)) {
      const tool = tools.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} is offered`);
      for (const field of fields)
        assert.ok(field in (tool.inputSchema.properties ?? {}), `${name}.${field} is in the schema`);
    }
    const cost = toolListCost(tools);
    assert.ok(
      cost.definitionTokens <= DEFINITION_BUDGET,
      `unbound tool definitions cost ${cost.definitionTokens} tokens; budget ${DEFINITION_BUDGET}`,
    );
    for (const admin of ADMIN_TOOLS)
      assert.ok(!tools.some((tool) => tool.name === admin.name), `${admin.name} is opt-in`);
  });

  it('leaves the identifiers a bound server knows out of the listing, and costs less for it', async () => {
    await test.core.close();
    test = await createTestCore({ dataDir: test.dataDir, defaultProjectId: 'acme/orders' });
    const unbound = toolListCost(await listed(test));
    const bound = await listed(test, { defaultUserId: 'alex' });
    for (const tool of bound) {
      for (const field of ['user_id', 'project_id', 'team_id', 'org_id', 'company_id'])
        assert.ok(!(field in (tool.inputSchema.properties ?? {})), `${tool.name} does not list ${field}`);
    }
    for (const [name, fields] of Object.entries(SPEC_FIELDS)) {
      const tool = bound.find((candidate) => candidate.name === name)!;
      for (const field of fields.filter((field) => field !== 'user_id' && field !== 'org_id'))
        assert.ok(field in (tool.inputSchema.properties ?? {}), `${name}.${field} is in the bound schema`);
    }
    assert.ok(toolListCost(bound).definitionTokens < unbound.definitionTokens - 300);
  });

  it('adds the admin group only when opted in', async () => {
    const all = await listed(test, { adminTools: true });
    for (const admin of ADMIN_TOOLS)
      assert.ok(
        all.some((tool) => tool.name === admin.name),
        `${admin.name} is offered when opted in`,
      );
    assert.equal(all.length, (await listed(test)).length + ADMIN_TOOLS.length);
  });

  it('writes schemas in the default dialect with one type per field', async () => {
    const text = JSON.stringify(await listed(test, { adminTools: true }));
    assert.ok(!text.includes('draft-07'), 'no draft-07 $schema');
    assert.ok(!text.includes('"$schema"'), 'the default dialect is not declared');
    assert.ok(!/"type":\[/.test(text), 'no field has a type array');
    assert.ok(
      text.includes('"anyOf":[{"type":"string"},{"type":"null"}]'),
      'nullable fields are an anyOf of single types',
    );
  });

  describe('answers sized for a model', () => {
    let client: Client;
    let close: () => Promise<void>;
    const ids: string[] = [];
    before(async () => {
      ({ client, close } = await connectClient({ core: test.core, defaultUserId: 'reader' }));
      for (const content of MEMORIES) {
        const stored = await client.callTool({
          name: 'store_memory',
          arguments: { content, memory_category: 'semantic', memory_subtype: 'project' },
        });
        ids.push((stored.structuredContent as { memory_id: string }).memory_id);
      }
    });
    after(async () => {
      await close();
    });

    it('a default recall reads as the memories, at least half of its tokens their own text', async () => {
      const result = await client.callTool({
        name: 'recall_memories',
        arguments: { query: 'orders database', limit: 5 },
      });
      const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
      const memories = (
        result.structuredContent as {
          memories: Array<{ memory_id: string; content: string; score_breakdown?: unknown; why_matched?: unknown }>;
        }
      ).memories;
      assert.equal(memories.length, 5);
      const counter = new TiktokenCounter();
      const own = memories.reduce((sum, memory) => sum + counter.count(memory.content), 0);
      const ratio = own / counter.count(text);
      assert.ok(ratio >= 0.5, `memory text is ${(ratio * 100).toFixed(0)} % of the answer`);
      for (const memory of memories) {
        // The short id (mem_ and 8 hex digits) the tools accept back, and the memory's type.
        assert.ok(
          text.includes(`${memory.memory_id.slice(0, 12)} (project): ${memory.content}`),
          'each memory is in the text with its short id and type',
        );
        assert.ok(!text.includes(memory.memory_id), 'the full id is left to the structured content');
        assert.equal(memory.score_breakdown, undefined);
        assert.equal(memory.why_matched, undefined);
      }
      assert.ok(!text.includes('score_breakdown') && !text.includes('text_match'));
      assert.ok(!text.includes('Memory has nothing'), 'the abstention note is for empty answers only');
    });

    it('an empty recall reads as the abstention note alone', async () => {
      const result = await client.callTool({
        name: 'recall_memories',
        arguments: { query: 'how do I pair the Bluetooth printer', limit: 5 },
      });
      assert.deepEqual((result.structuredContent as { memories: unknown[] }).memories, []);
      assert.match(
        (result.content as Array<{ text: string }>)[0]!.text,
        /^Memory has nothing on this( \(best match \d\.\d\d < floor [\d.]+\))?\.$/,
      );
    });

    it('explain brings the score breakdown back', async () => {
      const result = await client.callTool({
        name: 'recall_memories',
        arguments: { query: 'orders database', limit: 2, explain: true },
      });
      const memories = (
        result.structuredContent as {
          memories: Array<{ score_breakdown: { text_match: number }; why_matched: string }>;
        }
      ).memories;
      assert.ok(memories[0]!.score_breakdown.text_match > 0);
      assert.match((result.content as Array<{ text: string }>)[0]!.text, /why: /);
    });

    it('a context answer reads as its items, without the scoring', async () => {
      const session = await client.callTool({ name: 'init_session', arguments: {} });
      const sessionId = (session.structuredContent as { session_id: string }).session_id;
      await client.callTool({
        name: 'add_to_working_memory',
        arguments: {
          session_id: sessionId,
          content: 'Task: speed up the orders database backup',
          content_type: 'task_state',
        },
      });
      const result = await client.callTool({
        name: 'get_relevant_context',
        arguments: { session_id: sessionId, query: 'orders database backup', token_budget: 400 },
      });
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      const items = (
        result.structuredContent as { context_items: Array<{ source: string; memory_id?: string; content: string }> }
      ).context_items;
      assert.ok(items.length >= 2);
      for (const item of items) assert.ok(text.includes(item.content), 'every item is in the text');
      assert.ok(
        items.some((item) => item.memory_id !== undefined && text.includes(`id="${item.memory_id}"`)),
        'long-term items carry their id',
      );
      assert.ok(!text.includes('why_included') && !text.includes('relevance_score'));
    });
  });
});
