import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callError,
  callOk,
  connectClient,
  createTestCore,
  TRANSPORTS,
  readJsonResource,
  type TestCore,
} from '../support/testCore.ts';

interface Added {
  item_id: string;
  token_count: number;
  evicted_items: string[];
  promoted_items: Array<{ item_id: string; memory_id: string; action: string }>;
  total_tokens: number;
}

for (const transport of TRANSPORTS)
  describe(`working memory tools over MCP (${transport})`, () => {
    let test: TestCore;
    let client: Client;
    let close: () => Promise<void>;

    before(async () => {
      test = await createTestCore();
      ({ client, close } = await connectClient({ core: test.core }, transport));
    });
    after(async () => {
      await close();
      await test.cleanup();
    });

    it('creates and resumes a session bound to its user', async () => {
      const created = await callOk<{
        session_id: string;
        created: boolean;
        working_memory: { max_tokens: number; eviction_policy: string };
      }>(client, 'init_session', { user_id: 'u1' });
      assert.equal(created.created, true);
      assert.equal(created.working_memory.max_tokens, 8000);
      assert.equal(created.working_memory.eviction_policy, 'hybrid');
      const resumed = await callOk<{ created: boolean }>(client, 'init_session', {
        user_id: 'u1',
        session_id: created.session_id,
      });
      assert.equal(resumed.created, false);
      assert.equal(
        (await callError(client, 'init_session', { user_id: 'someone-else', session_id: created.session_id })).code,
        'SESSION_NOT_FOUND',
      );
      assert.equal(
        (
          await callError(client, 'add_to_working_memory', {
            session_id: 'sess_unknown',
            content: 'x',
            content_type: 'message',
          })
        ).code,
        'SESSION_NOT_FOUND',
      );
    });

    it('counts tokens with cl100k_base and evicts within the budget, promoting what is worth keeping', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', {
        user_id: 'u2',
        config: { max_tokens: 120, eviction_policy: 'lru' },
      });
      const hello = await callOk<Added>(client, 'add_to_working_memory', {
        session_id,
        content: 'hello world',
        content_type: 'message',
      });
      assert.equal(hello.token_count, 2);
      const plan = await callOk<Added>(client, 'add_to_working_memory', {
        session_id,
        content: 'Plan: 1) migrate the users table 2) backfill emails 3) flip the feature flag',
        content_type: 'task_state',
      });
      const pinned = await callOk<Added>(client, 'add_to_working_memory', {
        session_id,
        content: 'The user wants all SQL in uppercase keywords',
        content_type: 'message',
        pinned: true,
      });
      const decision = await callOk<Added>(client, 'add_to_working_memory', {
        session_id,
        content: 'We decided to store sessions in Redis because the Postgres table was too slow under load',
        content_type: 'message',
      });
      let last: Added = decision;
      for (let index = 0; index < 6 && last.evicted_items.length === 0; index++) {
        last = await callOk<Added>(client, 'add_to_working_memory', {
          session_id,
          content: `Chatter number ${index} about unrelated formatting details in the README file`,
          content_type: 'message',
        });
      }
      assert.ok(last.evicted_items.length > 0, 'something was evicted once the budget filled');
      assert.ok(last.total_tokens <= 120);
      const state = await callOk<{ items: Array<{ item_id: string }>; total_tokens: number }>(
        client,
        'get_working_memory',
        { session_id },
      );
      const remaining = state.items.map((item) => item.item_id);
      assert.ok(remaining.includes(pinned.item_id), 'pinned items are never evicted');
      assert.ok(remaining.includes(plan.item_id), 'task state outlives messages under lru');
      assert.ok(!remaining.includes(hello.item_id), 'the least recently used message left first');
      assert.ok(state.total_tokens <= 120);
      const evictedSoFar = new Set<string>();
      const queued = new Set<string>();
      for (const result of [decision, last]) {
        for (const id of result.evicted_items) evictedSoFar.add(id);
        for (const promoted of result.promoted_items) {
          assert.equal(promoted.action, 'queued');
          assert.equal(promoted.memory_id, null);
          queued.add(promoted.item_id);
        }
      }
      assert.ok(
        evictedSoFar.has(hello.item_id) && !queued.has(hello.item_id),
        'a two-token greeting is evicted, not worth keeping',
      );
      if (evictedSoFar.has(decision.item_id)) {
        assert.ok(queued.has(decision.item_id), 'the decision was queued for promotion');
        await test.core.drainBackgroundWork();
        const recalled = await callOk<{ memories: Array<{ content: string; source_type: string }> }>(
          client,
          'recall_memories',
          { user_id: 'u2', query: 'sessions Redis Postgres slow' },
        );
        assert.ok(
          recalled.memories.some(
            (memory) => memory.content.includes('store sessions in Redis') && memory.source_type === 'working_memory',
          ),
          'the evicted decision is now a long-term memory',
        );
      }
    });

    it('promotes items evicted before a crash when the session is resumed', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'u7' });
      const session = await test.core.getSession(session_id);
      assert.ok(session);
      // An item evicted and marked, whose promotion never ran (the process died right after the add).
      await test.store.commitWorking({
        session,
        delete: [],
        upsert: [
          {
            item_id: 'wmi_orphan',
            session_id,
            user_id: 'u7',
            content_type: 'message',
            token_count: 20,
            relevance_score: 1,
            pinned: false,
            sequence_num: 99,
            content: 'We decided to pin the Node version to 24 in .nvmrc because CI broke on 26',
            created_at: new Date().toISOString(),
            last_accessed: new Date().toISOString(),
            metadata: { evicted_at: new Date().toISOString() },
          },
        ],
      });
      assert.equal(
        (await callOk<{ items: unknown[] }>(client, 'get_working_memory', { session_id })).items.length,
        0,
        'an item awaiting promotion is not in working memory',
      );
      await callOk(client, 'init_session', { user_id: 'u7', session_id });
      await test.core.drainBackgroundWork();
      const recalled = await callOk<{ memories: Array<{ content: string }> }>(client, 'recall_memories', {
        user_id: 'u7',
        query: 'Node version nvmrc',
      });
      assert.equal(
        recalled.memories[0]?.content,
        'We decided to pin the Node version to 24 in .nvmrc because CI broke on 26',
      );
      assert.deepEqual(await test.store.listWorkingItems(session_id), []);
    });

    it('honours token_budget and include_types when reading', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'u3' });
      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'first message with several tokens in it',
        content_type: 'message',
      });
      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'scratch: try the retry decorator',
        content_type: 'scratchpad',
      });
      const last = await callOk<Added>(client, 'add_to_working_memory', {
        session_id,
        content: 'latest message',
        content_type: 'message',
      });
      const messages = await callOk<{ items: Array<{ content_type: string }>; truncated: boolean }>(
        client,
        'get_working_memory',
        { session_id, include_types: ['message'] },
      );
      assert.deepEqual(
        messages.items.map((item) => item.content_type),
        ['message', 'message'],
      );
      const small = await callOk<{ items: Array<{ item_id: string }>; total_tokens: number; truncated: boolean }>(
        client,
        'get_working_memory',
        { session_id, token_budget: last.token_count },
      );
      assert.deepEqual(
        small.items.map((item) => item.item_id),
        [last.item_id],
      );
      assert.equal(small.truncated, true);
      assert.equal(
        (await callError(client, 'get_working_memory', { session_id, include_types: ['gossip'] })).code,
        'INVALID_INPUT',
      );
    });

    it('checkpoints to long-term memory, then clears', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'u4' });
      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'We decided to use Vitest instead of Jest for the web package because it is faster with Vite',
        content_type: 'message',
      });
      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'When the e2e tests time out, check that the dev server started on port 5173 first',
        content_type: 'message',
      });
      await callOk(client, 'add_to_working_memory', { session_id, content: 'ok', content_type: 'message' });
      const below = await callOk<{ memories_created: number; skipped_reason?: string }>(
        client,
        'checkpoint_working_memory',
        { session_id },
      );
      assert.equal(below.memories_created, 0);
      assert.match(below.skipped_reason ?? '', /threshold/);
      const forced = await callOk<{
        memories_created: number;
        working_memory_tokens_freed: number;
        memory_ids: string[];
      }>(client, 'checkpoint_working_memory', { session_id, force: true });
      assert.equal(forced.memories_created, 2);
      assert.ok(forced.working_memory_tokens_freed > 0);
      const [decision] = await test.core.getMemories('u4', forced.memory_ids);
      assert.ok(decision);
      const kinds = (await test.core.getMemories('u4', forced.memory_ids))
        .map((memory) => `${memory.memory_category}.${memory.memory_subtype}`)
        .sort();
      assert.deepEqual(kinds, ['episodic.decision', 'procedural.debugging']);

      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'The API gateway config lives in infra/gateway.yaml and is owned by the platform team',
        content_type: 'message',
      });
      const cleared = await callOk<{ success: boolean; memories_preserved: number; items_removed: number }>(
        client,
        'clear_working_memory',
        { session_id },
      );
      assert.equal(cleared.success, true);
      assert.equal(cleared.memories_preserved, 1);
      assert.equal((await callOk<{ items: unknown[] }>(client, 'get_working_memory', { session_id })).items.length, 0);
    });

    it('assembles relevant context from working and long-term memory within the budget', async () => {
      const user = 'u5';
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: user });
      await callOk(client, 'store_memory', {
        user_id: user,
        content:
          'To add an API endpoint: create the route in api/routes, add a pydantic model, register it in api/main.py',
        memory_category: 'procedural',
        memory_subtype: 'workflow',
        entities: ['file:api/main.py'],
      });
      await callOk(client, 'store_memory', {
        user_id: user,
        content: 'Table users has fields id, email, created_at',
        memory_category: 'semantic',
        memory_subtype: 'entity',
        entities: ['table:users'],
      });
      await callOk(client, 'store_memory', {
        user_id: user,
        content: 'User prefers concise answers with code first',
        memory_category: 'preference',
        memory_subtype: 'communication',
      });
      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'Current task: add an endpoint that lists users',
        content_type: 'task_state',
      });
      const context = await callOk<{
        context_items: Array<{ source: string; memory_subtype?: string; token_count: number; why_included: string }>;
        total_tokens: number;
        detected_intent: string;
        budget_used_pct: number;
        retrieval_stats: { long_term_returned: number; entity_boost_applied: boolean };
      }>(client, 'get_relevant_context', {
        user_id: user,
        session_id,
        query: 'How do I add a new API endpoint for users?',
        token_budget: 200,
        focus_entities: ['table:users'],
      });
      assert.equal(context.detected_intent, 'how_to');
      assert.ok(context.total_tokens <= 200);
      assert.equal(
        context.total_tokens,
        context.context_items.reduce((sum, item) => sum + item.token_count, 0),
      );
      assert.ok(context.context_items.some((item) => item.source === 'working_memory'));
      assert.ok(context.context_items.some((item) => item.memory_subtype === 'workflow'));
      assert.ok(context.retrieval_stats.entity_boost_applied);
      for (const item of context.context_items) assert.ok(item.why_included.length > 10);
      const tiny = await callOk<{ context_items: unknown[]; total_tokens: number }>(client, 'get_relevant_context', {
        user_id: user,
        session_id,
        query: 'endpoint',
        token_budget: 5,
        query_intent: 'what_is',
      });
      assert.ok(tiny.total_tokens <= 5);
      assert.equal(
        (
          await callError(client, 'get_relevant_context', {
            user_id: 'other',
            session_id,
            query: 'x',
            token_budget: 100,
          })
        ).code,
        'SESSION_NOT_FOUND',
      );
    });

    it('exposes the stats and session resources', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'u6' });
      await callOk(client, 'store_memory', {
        user_id: 'u6',
        content: 'Prefers tabs',
        memory_category: 'preference',
        memory_subtype: 'style',
      });
      const parsed = await readJsonResource<{
        memories: number;
        by_category: Record<string, number>;
        backend: { kind: string };
      }>(client, 'memory://u6/stats');
      assert.equal(parsed.memories, 1);
      assert.equal(parsed.by_category.preference, 1);
      assert.equal(parsed.backend.kind, 'sqlite');
      assert.equal(
        (await readJsonResource<{ session_id: string }>(client, `memory://${session_id}/info`)).session_id,
        session_id,
      );
    });
  });
