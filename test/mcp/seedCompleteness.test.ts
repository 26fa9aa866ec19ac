import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callError, callOk, connectClient, createTestCore, TRANSPORTS, type TestCore } from '../support/testCore.ts';
import { LINK_TARGET, RELATED_TO_TARGET, UNRELATED_TO_TARGET } from '../core/lifecycle/relatedMemoriesFixture.ts';

/** Issue 19 "Complete to the seeds": each point through a real MCP client, asserted on what is stored. */
for (const transport of TRANSPORTS) {
  describe(`seed completeness over MCP (${transport})`, () => {
    let t: TestCore;
    let client: Client;
    let close: () => Promise<void>;
    const store = async (args: Record<string, unknown>) =>
      callOk<{
        memory_id: string;
        similar_existing?: { memory_id: string; similarity: number; action: string };
        contradicts?: { memory_id: string; kind: string };
      }>(client, 'store_memory', {
        memory_category: 'semantic',
        memory_subtype: 'project',
        ...args,
      });

    before(async () => {
      t = await createTestCore();
      ({ client, close } = await connectClient({ core: t.core, adminTools: true }, transport));
    });
    after(async () => {
      await close();
      await t.cleanup();
    });

    it('deletes a fact of the project layer (seed 002 delete_fact with layer project)', async () => {
      const set = await callOk<{ fact: { memory_id: string } }>(client, 'set_fact', {
        user_id: 'pf',
        layer: 'project',
        project_id: 'P',
        category: 'instruction',
        key: 'indent',
        value: 'tabs',
      });
      const deleted = await callOk<{ deleted: boolean; memory_id: string }>(client, 'delete_fact', {
        user_id: 'pf',
        layer: 'project',
        project_id: 'P',
        category: 'instruction',
        key: 'indent',
      });
      assert.equal(deleted.memory_id, set.fact.memory_id);
      const [stored] = await t.store.getMemories('project:P', [set.fact.memory_id]);
      assert.ok(stored.deleted_at, 'the project fact memory is soft-deleted in the store');
      const facts = await callOk<{ facts: unknown[] }>(client, 'get_facts', {
        user_id: 'pf',
        project_id: 'P',
        category: 'instruction',
      });
      assert.deepEqual(facts.facts, []);
      assert.equal(
        (
          await callError(client, 'delete_fact', {
            user_id: 'pf',
            layer: 'project',
            project_id: 'P',
            category: 'instruction',
            key: 'indent',
          })
        ).code,
        'MEMORY_NOT_FOUND',
      );
    });

    it('answers an unknown layer with INVALID_LAYER, and names the failed operation in every error (seed 001)', async () => {
      const storeError = await callError(client, 'store_memory', {
        user_id: 'el',
        layer: 'galaxy',
        content: 'x y z',
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      assert.deepEqual(
        [storeError.code, (storeError as { operation?: string }).operation],
        ['INVALID_LAYER', 'store_memory'],
      );
      const recallError = await callError(client, 'recall_memories', {
        user_id: 'el',
        query: 'x',
        layers: ['user', 'galaxy'],
      });
      assert.deepEqual(
        [recallError.code, (recallError as { operation?: string }).operation],
        ['INVALID_LAYER', 'recall_memories'],
      );
      for (const [tool, args] of [
        ['set_fact', { user_id: 'el', layer: 'galaxy', category: 'identity', key: 'name', value: 'A' }],
        ['get_facts', { user_id: 'el', layers: ['galaxy'] }],
        ['forget_memory', { user_id: 'el', memory_id: 'mem_x', layer: 'galaxy' }],
        ['promote_memory', { user_id: 'el', memory_id: 'mem_x', to_layer: 'galaxy' }],
      ] as const) {
        const error = await callError(client, tool, args);
        assert.deepEqual([error.code, (error as { operation?: string }).operation], ['INVALID_LAYER', tool], tool);
      }
      const missing = await callError(client, 'forget_memory', { user_id: 'el', memory_id: 'mem_does_not_exist' });
      assert.deepEqual(
        [missing.code, (missing as { operation?: string }).operation],
        ['MEMORY_NOT_FOUND', 'forget_memory'],
      );
    });

    it('leaves out a source whose context weight is 0', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'cw' });
      await callOk(client, 'add_to_working_memory', {
        session_id,
        content: 'Currently migrating the heron billing tables',
        content_type: 'message',
      });
      const decision = (
        await store({
          user_id: 'cw',
          content: 'We decided heron billing tables move to Postgres',
          memory_category: 'episodic',
          memory_subtype: 'decision',
        })
      ).memory_id;
      const workflow = (
        await store({
          user_id: 'cw',
          content: 'Migrate heron billing tables with the dbmate workflow',
          memory_category: 'procedural',
          memory_subtype: 'workflow',
        })
      ).memory_id;
      type Context = { context_items: Array<{ source: string; memory_id?: string }> };
      const context = (weights?: Record<string, number>) =>
        callOk<Context>(client, 'get_relevant_context', {
          user_id: 'cw',
          session_id,
          query: 'heron billing tables',
          token_budget: 2000,
          ...(weights ? { context_weights: weights } : {}),
        });
      const ids = (result: Context) => result.context_items.map((item) => item.memory_id ?? item.source);
      assert.deepEqual(new Set(ids(await context())), new Set(['working_memory', decision, workflow]));
      assert.deepEqual(new Set(ids(await context({ working_memory: 0 }))), new Set([decision, workflow]));
      assert.deepEqual(new Set(ids(await context({ episodic_decisions: 0 }))), new Set(['working_memory', workflow]));
      assert.deepEqual(
        new Set(ids(await context({ procedural_workflow: 0, working_memory: 0.01 }))),
        new Set(['working_memory', decision]),
      );
    });

    it('reports a memory between 0.8 and 0.95 similar as similar_existing, and stores the new one', async () => {
      const first = (
        await store({
          user_id: 'se',
          content: 'The nightly export job writes parquet files into the analytics bucket on S3',
        })
      ).memory_id;
      const second = await store({
        user_id: 'se',
        content: 'The nightly export job writes csv files into the reporting bucket on GCS',
      });
      assert.equal(second.similar_existing?.memory_id, first);
      assert.equal(second.similar_existing?.action, 'created_new');
      assert.ok(
        second.similar_existing.similarity >= 0.8 && second.similar_existing.similarity < 0.85,
        `similarity ${second.similar_existing.similarity}`,
      );
      assert.notEqual(second.memory_id, first);
      assert.equal(
        (await t.core.getMemory('se', second.memory_id)).content,
        'The nightly export job writes csv files into the reporting bucket on GCS',
      );
      const unrelated = await store({ user_id: 'se', content: 'Team lunch is on Thursdays at the canal cafe' });
      assert.equal(unrelated.similar_existing, undefined);
    });

    it('detects a negated and corrected statement on store and in find_memory_contradictions', async () => {
      const older = (await store({ user_id: 'ng', content: 'The cache TTL is 60 seconds' })).memory_id;
      const newer = await store({ user_id: 'ng', content: 'The cache TTL is not 60 seconds, it is 300 seconds' });
      assert.deepEqual([newer.contradicts?.memory_id, newer.contradicts?.kind], [older, 'negation']);
      assert.equal((await t.core.getMemory('ng', older)).superseded_by, newer.memory_id);

      // A pinned memory (pinned in the panel) is never superseded on store, so the pair stays for find_memory_contradictions.
      const pinned = (await store({ user_id: 'ng2', content: 'The cache TTL is 60 seconds' })).memory_id;
      await t.core.updateMemory({ user_id: 'ng2', memory_id: pinned, pinned: true });
      const correction = (
        await store({ user_id: 'ng2', content: 'The cache TTL is not 60 seconds, it is 300 seconds' })
      ).memory_id;
      const scan = await callOk<{
        pairs: Array<{ older: { memory_id: string }; newer: { memory_id: string }; kind: string; strength: string }>;
      }>(client, 'find_memory_contradictions', { user_id: 'ng2' });
      assert.deepEqual(
        scan.pairs.map((pair) => [pair.older.memory_id, pair.newer.memory_id, pair.kind, pair.strength]),
        [[pinned, correction, 'negation', 'strong']],
      );
    });

    it('stores an episodic summary after 20 conversation turns added through add_to_working_memory', async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'ep' });
      for (let n = 1; n <= 20; n++) {
        const content =
          n === 9
            ? 'We decided the wren service moves to Fly.io next sprint.'
            : `Turn ${n} about the wren service rollout plan, step ${n}.`;
        await callOk(client, 'add_to_working_memory', { session_id, content, content_type: 'message' });
      }
      await t.core.drainBackgroundWork();
      const listed = await t.store.listMemories({
        filter: { user_id: 'ep', tags: ['episode-summary'] },
        sort: 'created',
        offset: 0,
        limit: 10,
      });
      assert.equal(listed.items.length, 1);
      assert.match(listed.items[0].content, /^Conversation turns 1–20: .*wren service moves to Fly\.io/);
      const working = await callOk<{ items: unknown[] }>(client, 'get_working_memory', { session_id });
      assert.equal(working.items.length, 20, 'the turns stay in working memory');
    });

    it('auto-links the related memories of a topic, with the default threshold', async () => {
      const target = (await store({ user_id: 'al', content: LINK_TARGET })).memory_id;
      const related: string[] = [];
      for (const content of RELATED_TO_TARGET) related.push((await store({ user_id: 'al', content })).memory_id);
      for (const content of UNRELATED_TO_TARGET) await store({ user_id: 'al', content });
      const result = await callOk<{ linked: Array<{ memory_id: string }> }>(client, 'auto_link_similar', {
        user_id: 'al',
        memory_id: target,
      });
      assert.equal(result.linked.length, RELATED_TO_TARGET.length);
      assert.deepEqual(new Set((await t.core.getMemory('al', target)).related_memories), new Set(related));
    });
  });
}
