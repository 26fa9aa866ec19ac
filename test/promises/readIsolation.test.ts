import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every read tool of the catalog, with each of its optional parameters set to the value that
 * widens what it returns most (every layer, all history, the largest limit and budget, every type),
 * never returns another user's memories, facts, sessions, calls or errors (SECURITY.md "Trust
 * boundary": a user's memory is reachable only by that user). Recall and get_relevant_context are
 * checked against abstention and limits as well by optionalParameters.test.ts. Layers other than
 * the user's own need identifiers bob's memories do not have; the layer identifiers themselves are
 * the binding's business (writeBindings.test.ts, layerAccess.test.ts). The read tools are
 * read from the catalog: a new one fails the first test until it has a call here.
 */

const BOB_MARK = 'zebracorn';
const READ_TOOLS = TOOLS.filter((tool) => tool.annotations.readOnlyHint);
const fieldsOf = (name: string): string[] => Object.keys(TOOLS.find((tool) => tool.name === name)!.input);

interface Own {
  session: string;
  memory: string;
}

/** A call each read tool accepts from alice, and a widening value for each optional parameter it takes. */
const READ_CALLS: Record<
  string,
  { base: (own: Own) => Record<string, unknown>; widen: Record<string, unknown>; unused?: readonly string[] }
> = {
  get_working_memory: {
    base: (own) => ({ session_id: own.session }),
    widen: {
      token_budget: 1_000_000,
      include_types: ['message', 'task_state', 'scratchpad', 'system', 'retrieved_memory', 'editor_context'],
    },
  },
  recall_memories: {
    base: () => ({ query: `${BOB_MARK} vault rotation and the parser` }),
    widen: {
      memory_categories: ['episodic', 'semantic', 'procedural', 'preference'],
      entities: [BOB_MARK],
      limit: 100,
      min_similarity: 0,
      alternate_queries: [`${BOB_MARK} vault`],
      time_range: { start: '2000-01-01T00:00:00Z', end: '2100-01-01T00:00:00Z' },
      tags: [BOB_MARK],
      include_low_confidence: true,
      layers: ['user'],
      explain: true,
    },
    // Narrowing filters (a subtype, a session) and layer identifiers the binding tests cover.
    unused: ['memory_subtypes', 'session_id', 'agent_id', 'project_id', 'team_id', 'org_id', 'company_id'],
  },
  get_relevant_context: {
    base: (own) => ({ session_id: own.session, query: `${BOB_MARK} vault rotation`, token_budget: 2000 }),
    widen: {
      token_budget: 100_000,
      query_intent: 'what_happened',
      context_weights: { working_memory: 1, long_term: 1, facts: 1 },
      focus_entities: [BOB_MARK],
      layers: ['user'],
    },
    unused: ['agent_id', 'project_id', 'team_id', 'org_id', 'company_id'],
  },
  get_facts: {
    base: () => ({ category: 'identity' }),
    widen: { key: 'name', include_history: true, layers: ['user'] },
    unused: ['agent_id', 'session_id', 'project_id', 'team_id', 'org_id', 'company_id'],
  },
  find_memory_contradictions: { base: () => ({}), widen: { limit: 100 } },
  get_related_memories: {
    base: (own) => ({ memory_id: own.memory }),
    widen: { max_depth: 5, limit: 100, include_supersession: true },
  },
  memory_quality_report: { base: () => ({}), widen: {} },
  get_memory_analytics: { base: () => ({}), widen: { bucket: 'day', buckets: 365 } },
  get_recent_calls: { base: () => ({}), widen: { limit: 100 } },
  get_recent_errors: { base: () => ({}), widen: { limit: 100 } },
  // A cursor it did not hand out is refused (exportPages.test.ts); the first page is the widest.
  export_memories: { base: () => ({}), widen: {}, unused: ['cursor'] },
};

describe('every read tool, with every optional parameter widened, never returns another user’s data', () => {
  let test: TestCore;
  let open: Client;
  let bound: Client;
  const closers: Array<() => Promise<void>> = [];
  const own: Own = { session: '', memory: '' };

  before(async () => {
    test = await createTestCore();
    for (const [context, set] of [
      [{ core: test.core, adminTools: true }, (client: Client) => (open = client)],
      [{ core: test.core, defaultUserId: 'alice', adminTools: true }, (client: Client) => (bound = client)],
    ] as const) {
      const connected = await connectClient(context);
      set(connected.client);
      closers.push(connected.close);
    }
    // Bob's memories, facts, session, calls and an error, all naming the mark, on the server alice reads too.
    for (const content of [
      `Bob decided the ${BOB_MARK} vault rotates every Monday`,
      `Bob decided the ${BOB_MARK} vault never rotates`,
    ])
      await callOk(open, 'store_memory', {
        user_id: 'bob',
        content,
        memory_category: 'episodic',
        memory_subtype: 'decision',
        entities: [BOB_MARK],
        tags: [BOB_MARK],
      });
    await callOk(open, 'set_fact', { user_id: 'bob', category: 'identity', key: 'name', value: `Bob ${BOB_MARK}` });
    const session = (await callOk<{ session_id: string }>(open, 'init_session', { user_id: 'bob' })).session_id;
    await callOk(open, 'add_to_working_memory', {
      user_id: 'bob',
      session_id: session,
      content: `Bob is rotating the ${BOB_MARK} vault`,
      content_type: 'task_state',
    });
    await open.callTool({ name: 'update_memory', arguments: { user_id: 'bob', memory_id: `mem_${BOB_MARK}` } });
    await callOk(open, 'recall_memories', { user_id: 'bob', query: `${BOB_MARK} vault` });
    // Alice's own, so every tool has something of hers to return.
    own.memory = (
      await callOk<{ memory_id: string }>(open, 'store_memory', {
        user_id: 'alice',
        content: 'We decided the parser is hand-written',
        memory_category: 'episodic',
        memory_subtype: 'decision',
      })
    ).memory_id;
    own.session = (await callOk<{ session_id: string }>(open, 'init_session', { user_id: 'alice' })).session_id;
    await callOk(open, 'set_fact', { user_id: 'alice', category: 'identity', key: 'name', value: 'Alice' });
  });
  after(async () => {
    for (const close of closers) await close();
    await test.cleanup();
  });

  it('has a call for every read tool of the catalog and a widening value for each optional parameter', () => {
    assert.deepEqual(
      READ_TOOLS.map((tool) => tool.name).filter((name) => !(name in READ_CALLS)),
      [],
      'read tools without a call in READ_CALLS',
    );
    for (const tool of READ_TOOLS) {
      const entry = READ_CALLS[tool.name]!;
      const covered = new Set([
        ...Object.keys(entry.base(own)),
        ...Object.keys(entry.widen),
        ...(entry.unused ?? []),
        'user_id',
      ]);
      assert.deepEqual(
        fieldsOf(tool.name).filter((field) => !covered.has(field)),
        [],
        `${tool.name}: parameters with no widening value (or no reason in unused)`,
      );
    }
  });

  for (const tool of READ_TOOLS) {
    it(`${tool.name}: with each optional parameter widened, alone and all at once, returns nothing of bob's`, async () => {
      const entry = READ_CALLS[tool.name]!;
      const base = entry.base(own);
      const variants: Array<[string, Record<string, unknown>]> = [
        ['no option', {}],
        ...Object.entries(entry.widen).map(([field, value]): [string, Record<string, unknown>] => [
          field,
          { [field]: value },
        ]),
        ['every option', entry.widen],
      ];
      for (const [label, options] of variants) {
        for (const [client, via] of [
          [open, { user_id: 'alice' }],
          [bound, {}],
        ] as const) {
          const args = { ...base, ...via, ...options };
          const result = await client.callTool({ name: tool.name, arguments: args });
          const text = JSON.stringify(result.content);
          assert.ok(!result.isError, `${tool.name} (${label}) refused alice: ${text.slice(0, 300)}`);
          assert.ok(
            !text.toLowerCase().includes(BOB_MARK) && !/\bbob\b/i.test(text),
            `${tool.name} (${label}, ${'user_id' in via ? 'unbound' : 'bound'}) returned bob's data: ${text.slice(0, 400)}`,
          );
        }
      }
    });
  }
});
