import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callError, callOk, connectClient, createTestCore, TRANSPORTS, type TestCore } from '../support/testCore.ts';

interface Recalled {
  memories: Array<{
    memory_id: string;
    content: string;
    relevance_score: number;
    score_breakdown: { text_match: number; matched_terms: string[]; signals: string[] };
    access_count: number;
    why_matched: string;
    entities: string[];
  }>;
  retrieval_breakdown: { by_category: Record<string, number>; mode: string; text_matches: number };
}

for (const transport of TRANSPORTS)
  describe(`long-term memory tools over MCP (${transport})`, () => {
    let test: TestCore;
    let client: Client;
    let close: () => Promise<void>;

    before(async () => {
      test = await createTestCore();
      ({ client, close } = await connectClient({ core: test.core, adminTools: true }, transport));
    });
    after(async () => {
      await close();
      await test.cleanup();
    });

    it('lists every tool of the spec; free-form objects are described', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name).sort();
      assert.deepEqual(names, [
        'add_to_working_memory',
        'auto_link_similar',
        'checkpoint_working_memory',
        'clear_working_memory',
        'delete_fact',
        'export_memories',
        'find_memory_contradictions',
        'forget_all_user_memories',
        'forget_memory',
        'get_facts',
        'get_memory_analytics',
        'get_recent_calls',
        'get_recent_errors',
        'get_related_memories',
        'get_relevant_context',
        'get_working_memory',
        'import_memories',
        'init_session',
        'link_memories',
        'memory_prune',
        'memory_quality_report',
        'promote_memory',
        'recall_memories',
        'run_daily_maintenance',
        'set_fact',
        'store_memory',
        'supersede_memory',
        'unlink_memories',
        'update_memory',
      ]);
      for (const tool of tools) {
        assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
        assert.ok(tool.description && tool.description.length > 0, `${tool.name} has a description`);
        for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
          const property = schema as { description?: string; additionalProperties?: unknown };
          // A model cannot guess what belongs in an object that takes any key: such fields say it.
          if (property.additionalProperties !== undefined && property.additionalProperties !== false)
            assert.ok(property.description, `${tool.name}.${field} is described`);
        }
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
      assert.equal(byName.recall_memories?.readOnlyHint, true);
      assert.equal(byName.forget_all_user_memories?.destructiveHint, true);
      assert.equal(byName.store_memory?.readOnlyHint, false);
    });

    it('stores, extracts entities and recalls with a per-signal breakdown', async () => {
      const stored = await callOk<{ memory_id: string; entities_extracted: string[]; embedding_status: string }>(
        client,
        'store_memory',
        {
          user_id: 'alice',
          content:
            'We decided to use PostgreSQL for the orders service because of JSONB support; schema lives in db/schema.sql',
          memory_category: 'episodic',
          memory_subtype: 'decision',
          importance: 0.8,
          metadata: { tags: ['database'], reasoning: 'JSONB' },
        },
      );
      assert.match(stored.memory_id, /^mem_/);
      assert.ok(stored.entities_extracted.includes('file:db/schema.sql'));
      assert.equal(stored.embedding_status, 'none');
      await callOk(client, 'store_memory', {
        user_id: 'alice',
        content: 'The CI pipeline runs on GitHub Actions with Node 24',
        memory_category: 'semantic',
        memory_subtype: 'environment',
      });

      const recalled = await callOk<Recalled>(client, 'recall_memories', {
        user_id: 'alice',
        query: 'which database did we choose for orders?',
        explain: true,
      });
      assert.equal(recalled.memories[0]?.memory_id, stored.memory_id);
      assert.ok(recalled.memories[0].score_breakdown.text_match > 0);
      assert.ok(recalled.memories[0].score_breakdown.matched_terms.length > 0);
      assert.ok(recalled.memories[0].why_matched.includes('matched terms'));
      assert.equal(recalled.retrieval_breakdown.mode, 'lexical');
      assert.equal(recalled.retrieval_breakdown.by_category.episodic, 1);

      await test.core.flushAccessLog();
      const again = await callOk<Recalled>(client, 'recall_memories', { user_id: 'alice', query: 'orders database' });
      assert.equal(
        again.memories.find((memory) => memory.memory_id === stored.memory_id)?.access_count,
        1,
        'the first recall was logged',
      );
    });

    it('applies category, subtype, entity, tag and time filters', async () => {
      const user = 'filters';
      const old = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: user,
        content: 'Deployed billing v1 to production',
        memory_category: 'episodic',
        memory_subtype: 'event',
        event_time: '2025-01-05T10:00:00Z',
        entities: ['service:billing'],
        metadata: { tags: ['deploy'] },
      });
      const recent = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: user,
        content: 'Deployed billing v2 to production after the schema change',
        memory_category: 'episodic',
        memory_subtype: 'event',
        event_time: '2026-06-01T10:00:00Z',
      });
      await callOk(client, 'store_memory', {
        user_id: user,
        content: 'To deploy billing run make release then kubectl apply',
        memory_category: 'procedural',
        memory_subtype: 'workflow',
      });
      const ids = async (args: Record<string, unknown>) =>
        (
          await callOk<Recalled>(client, 'recall_memories', { user_id: user, query: 'deploy billing', ...args })
        ).memories.map((memory) => memory.memory_id);

      assert.equal((await ids({})).length, 3);
      assert.deepEqual(await ids({ memory_categories: ['procedural'] }).then((list) => list.length), 1);
      assert.deepEqual((await ids({ memory_subtypes: ['event'] })).sort(), [old.memory_id, recent.memory_id].sort());
      assert.deepEqual(await ids({ entities: ['service:billing'] }), [old.memory_id]);
      assert.deepEqual(await ids({ tags: ['deploy'] }), [old.memory_id]);
      assert.deepEqual(await ids({ time_range: { after: '2026-01-01T00:00:00Z' }, memory_subtypes: ['event'] }), [
        recent.memory_id,
      ]);
      assert.deepEqual(await ids({ limit: 1 }).then((list) => list.length), 1);
    });

    it('detects duplicates, updates near-duplicates and records corrections with supersedes', async () => {
      const user = 'dedupe';
      const first = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: user,
        content: 'Use pnpm, not npm, in the web repository',
        memory_category: 'procedural',
        memory_subtype: 'tool_usage',
      });
      const same = await callOk<{
        memory_id: string;
        similar_existing: { action: string; memory_id: string; similarity: number };
      }>(client, 'store_memory', {
        user_id: user,
        content: 'Use pnpm, not npm, in the web repository',
        memory_category: 'procedural',
        memory_subtype: 'tool_usage',
      });
      assert.equal(same.memory_id, first.memory_id);
      assert.equal(same.similar_existing.action, 'skipped_duplicate');
      assert.equal(same.similar_existing.similarity, 1);

      const fact = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: user,
        content: 'The staging database is called stage_db',
        memory_category: 'semantic',
        memory_subtype: 'entity',
      });
      const correction = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: user,
        content: 'The staging database is called staging_main',
        memory_category: 'semantic',
        memory_subtype: 'entity',
        supersedes: fact.memory_id,
      });
      const recalled = await callOk<Recalled>(client, 'recall_memories', {
        user_id: user,
        query: 'staging database name',
      });
      const ids = recalled.memories.map((memory) => memory.memory_id);
      assert.ok(ids.includes(correction.memory_id));
      assert.ok(!ids.includes(fact.memory_id), 'the superseded memory is no longer recalled');
      const withLow = await callOk<Recalled>(client, 'recall_memories', {
        user_id: user,
        query: 'staging database name',
        include_low_confidence: true,
      });
      assert.ok(
        !withLow.memories.some((memory) => memory.memory_id === fact.memory_id),
        'superseded memories stay hidden',
      );
    });

    it('updates content (merging metadata) and forgets softly or for good', async () => {
      const user = 'editor';
      const { memory_id } = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: user,
        content: 'Lint with eslint flat config',
        memory_category: 'procedural',
        memory_subtype: 'pattern',
        metadata: { source: 'chat' },
      });
      const updated = await callOk<{ success: boolean; re_embedded: boolean }>(client, 'update_memory', {
        user_id: user,
        memory_id,
        content: 'Lint with biome instead of eslint',
        importance: 0.9,
        metadata: { reviewed: true },
      });
      assert.deepEqual(updated, { success: true, re_embedded: false, redactions: [] });
      const memory = await test.core.getMemory(user, memory_id);
      assert.equal(memory.content, 'Lint with biome instead of eslint');
      assert.deepEqual(memory.metadata, { source: 'chat', reviewed: true });
      assert.equal(
        (await callOk<Recalled>(client, 'recall_memories', { user_id: user, query: 'biome' })).memories.length,
        1,
      );

      await callOk(client, 'forget_memory', { user_id: user, memory_id });
      assert.equal(
        (await callOk<Recalled>(client, 'recall_memories', { user_id: user, query: 'biome' })).memories.length,
        0,
      );
      assert.ok((await test.core.getMemory(user, memory_id)).deleted_at, 'soft delete keeps the row for undo');
      await test.core.restoreMemory(user, memory_id);
      assert.equal(
        (await callOk<Recalled>(client, 'recall_memories', { user_id: user, query: 'biome' })).memories.length,
        1,
      );

      await callOk(client, 'forget_memory', { user_id: user, memory_id, hard_delete: true });
      assert.equal(
        (await callError(client, 'update_memory', { user_id: user, memory_id, importance: 0.1 })).code,
        'MEMORY_NOT_FOUND',
      );
    });

    it('forgets everything of a user only with the exact confirmation', async () => {
      const user = 'gdpr';
      await callOk(client, 'store_memory', {
        user_id: user,
        content: 'My name is Sam',
        memory_category: 'semantic',
        memory_subtype: 'user',
      });
      await callOk(client, 'init_session', { user_id: user, session_id: 'gdpr-session' });
      assert.equal(
        (await callError(client, 'forget_all_user_memories', { user_id: user, confirmation: 'yes' })).code,
        'CONFIRMATION_REQUIRED',
      );
      const receipt = await callOk<{ memories_deleted: number; sessions_deleted: number }>(
        client,
        'forget_all_user_memories',
        { user_id: user, confirmation: 'CONFIRM_DELETE_ALL' },
      );
      assert.equal(receipt.memories_deleted, 1);
      assert.equal(receipt.sessions_deleted, 1);
      assert.equal(
        (await callOk<Recalled>(client, 'recall_memories', { user_id: user, query: 'name' })).memories.length,
        0,
      );
    });

    it('answers bad input with a code and a message, never a crash', async () => {
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'x',
            content: 'c',
            memory_category: 'episodic',
            memory_subtype: 'workflow',
          })
        ).code,
        'INVALID_INPUT',
      );
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'x',
            content: 'c',
            memory_category: 'feelings',
            memory_subtype: 'event',
          })
        ).code,
        'INVALID_INPUT',
      );
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'x',
            content: 'a'.repeat(100 * 1024 + 1),
            memory_category: 'episodic',
            memory_subtype: 'event',
          })
        ).code,
        'CONTENT_TOO_LONG',
      );
      assert.equal(
        (
          await callError(client, 'store_memory', {
            content: 'no user',
            memory_category: 'episodic',
            memory_subtype: 'event',
          })
        ).code,
        'MISSING_IDENTIFIER',
      );
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'x',
            content: 'c',
            memory_category: 'episodic',
            memory_subtype: 'event',
            event_time: 'last tuesday',
          })
        ).code,
        'INVALID_INPUT',
      );
      assert.equal(
        (await callError(client, 'recall_memories', { user_id: 'x', query: 'q'.repeat(5000) })).code,
        'QUERY_TOO_LONG',
      );
      assert.equal((await callError(client, 'recall_memories', { user_id: 'x', query: 42 })).code, 'INVALID_INPUT');
      assert.equal(
        (await callError(client, 'forget_memory', { user_id: 'x', memory_id: 'mem_missing' })).code,
        'MEMORY_NOT_FOUND',
      );
      assert.equal(
        (await callError(client, 'update_memory', { user_id: 'x', memory_id: 'mem_1', importance: 2 })).code,
        'INVALID_INPUT',
      );
    });

    it('a server bound to a user refuses calls naming another user', async () => {
      const bound = await connectClient({ core: test.core, defaultUserId: 'bound-owner' }, transport);
      try {
        const stored = await callOk<{ memory_id: string }>(bound.client, 'store_memory', {
          content: 'Bound servers act for one user',
          memory_category: 'semantic',
          memory_subtype: 'project',
        });
        assert.equal(
          (await test.core.getMemory('bound-owner', stored.memory_id)).content,
          'Bound servers act for one user',
        );
        assert.equal(
          (await callError(bound.client, 'recall_memories', { user_id: 'someone-else', query: 'bound' })).code,
          'UNAUTHORIZED',
        );
        assert.equal(
          (
            await callError(bound.client, 'forget_all_user_memories', {
              user_id: 'someone-else',
              confirmation: 'CONFIRM_DELETE_ALL',
            })
          ).code,
          'UNAUTHORIZED',
        );
        assert.equal(
          (await callOk<Recalled>(bound.client, 'recall_memories', { user_id: 'bound-owner', query: 'bound servers' }))
            .memories.length,
          1,
        );
      } finally {
        await bound.close();
      }
    });

    it("never shows, changes or deletes another user's memory", async () => {
      const secret = await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: 'owner',
        content: 'The deploy key rotates every Friday',
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      assert.equal(
        (await callOk<Recalled>(client, 'recall_memories', { user_id: 'intruder', query: 'deploy key rotates Friday' }))
          .memories.length,
        0,
      );
      assert.equal(
        (
          await callError(client, 'update_memory', {
            user_id: 'intruder',
            memory_id: secret.memory_id,
            content: 'hacked',
          })
        ).code,
        'MEMORY_NOT_FOUND',
      );
      assert.equal(
        (
          await callError(client, 'forget_memory', {
            user_id: 'intruder',
            memory_id: secret.memory_id,
            hard_delete: true,
          })
        ).code,
        'MEMORY_NOT_FOUND',
      );
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'intruder',
            content: 'x',
            memory_category: 'semantic',
            memory_subtype: 'project',
            supersedes: secret.memory_id,
          })
        ).code,
        'MEMORY_NOT_FOUND',
      );
      assert.equal(
        (await test.core.getMemory('owner', secret.memory_id)).content,
        'The deploy key rotates every Friday',
      );
    });
  });
