import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callError, callOk, connectClient, createTestCore, TRANSPORTS, type TestCore } from '../support/testCore.ts';

interface Recalled {
  memories: Array<{
    memory_id: string;
    layer: string;
    scope_id: string;
    content: string;
    overrides?: Array<{ memory_id: string; layer: string; reason: string }>;
  }>;
  retrieval_breakdown: { searched_layers: string[]; overridden: number };
}

for (const transport of TRANSPORTS) {
  describe(`memory layers over MCP (${transport})`, () => {
    let t: TestCore;
    let client: Client;
    let close: () => Promise<void>;
    const store = async (args: Record<string, unknown>) =>
      (
        await callOk<{ memory_id: string }>(client, 'store_memory', {
          memory_category: 'semantic',
          memory_subtype: 'project',
          ...args,
        })
      ).memory_id;
    const recall = (args: Record<string, unknown>) => callOk<Recalled>(client, 'recall_memories', args);

    before(async () => {
      t = await createTestCore();
      ({ client, close } = await connectClient({ core: t.core, adminTools: true }, transport));
    });
    after(async () => {
      await close();
      await t.cleanup();
    });

    it('stores in each layer and searches a layer only with its identifiers', async () => {
      const own = await store({ user_id: 'ana', content: 'The osprey service deploys from the main branch' });
      const agent = await store({
        user_id: 'ana',
        agent_id: 'copilot',
        layer: 'agent',
        content: 'Copilot explains osprey diffs before applying them',
      });
      const session = await store({
        user_id: 'ana',
        session_id: 'sess-osprey',
        layer: 'session',
        content: 'Now bisecting the osprey memory leak',
      });
      const project = await store({
        user_id: 'ana',
        project_id: 'osprey',
        layer: 'project',
        content: 'The osprey repository uses conventional commits',
      });

      const plain = await recall({ user_id: 'ana', query: 'osprey' });
      assert.deepEqual(
        plain.memories.map((m) => m.memory_id),
        [own],
      );
      assert.deepEqual(plain.retrieval_breakdown.searched_layers, ['user']);

      const all = await recall({
        user_id: 'ana',
        query: 'osprey',
        agent_id: 'copilot',
        session_id: 'sess-osprey',
        project_id: 'osprey',
      });
      assert.deepEqual(new Set(all.memories.map((m) => m.memory_id)), new Set([own, agent, session, project]));
      assert.deepEqual(all.retrieval_breakdown.searched_layers, ['agent', 'user', 'session', 'project']);
      const byId = new Map(all.memories.map((m) => [m.memory_id, m]));
      assert.deepEqual([byId.get(agent)?.layer, byId.get(agent)?.scope_id], ['agent', 'copilot']);
      assert.deepEqual([byId.get(project)?.layer, byId.get(project)?.scope_id], ['project', 'osprey']);

      const onlyProject = await recall({ user_id: 'ana', query: 'osprey', project_id: 'osprey', layers: ['project'] });
      assert.deepEqual(
        onlyProject.memories.map((m) => m.memory_id),
        [project],
      );
      const otherAgent = await recall({ user_id: 'ana', query: 'osprey', agent_id: 'claude', layers: ['agent'] });
      assert.deepEqual(otherAgent.memories, []);
    });

    it('shares project and team layers between users, and nothing personal', async () => {
      await store({ user_id: 'ana', content: 'Ana keeps the kestrel notes private' });
      const shared = await store({
        user_id: 'ana',
        project_id: 'kestrel',
        layer: 'project',
        content: 'The kestrel build needs Node 24',
      });
      const seen = await recall({ user_id: 'ben', query: 'kestrel', project_id: 'kestrel' });
      assert.deepEqual(
        seen.memories.map((m) => m.memory_id),
        [shared],
      );
      assert.deepEqual((await recall({ user_id: 'ben', query: 'kestrel' })).memories, []);
    });

    it('refuses a layer without its identifiers and a user id that names a shared layer', async () => {
      const missing = await callError(client, 'recall_memories', { user_id: 'ana', query: 'x', layers: ['team'] });
      assert.equal(missing.code, 'MISSING_IDENTIFIER');
      assert.match(missing.message, /team_id/);
      assert.equal(
        (
          await callError(client, 'store_memory', {
            user_id: 'ana',
            layer: 'agent',
            content: 'x y z',
            memory_category: 'semantic',
            memory_subtype: 'project',
          })
        ).code,
        'MISSING_IDENTIFIER',
      );
      assert.equal(
        (await callError(client, 'recall_memories', { user_id: 'team:core', query: 'x' })).code,
        'INVALID_INPUT',
      );
    });

    it('lets the more specific layer win a conflict and reports what it overrode (tabs vs spaces)', async () => {
      const company = await store({
        user_id: 'ana',
        company_id: 'acme',
        layer: 'company',
        content: 'Use spaces for indentation',
        memory_category: 'preference',
        memory_subtype: 'style',
      });
      const project = await store({
        user_id: 'ana',
        project_id: 'heron',
        layer: 'project',
        content: 'Use tabs for indentation',
        memory_category: 'preference',
        memory_subtype: 'style',
      });
      const merged = await recall({ user_id: 'ana', query: 'indentation', project_id: 'heron', company_id: 'acme' });
      assert.deepEqual(
        merged.memories.map((m) => m.memory_id),
        [project],
      );
      assert.equal(merged.memories[0].overrides?.[0]?.memory_id, company);
      assert.equal(merged.memories[0].overrides?.[0]?.layer, 'company');
      assert.equal(merged.retrieval_breakdown.overridden, 1);
      const companyOnly = await recall({ user_id: 'ana', query: 'indentation', company_id: 'acme' });
      assert.deepEqual(
        companyOnly.memories.map((m) => m.memory_id),
        [company],
      );
    });

    it('resolves facts per key by layer precedence, in get_facts and in context', async () => {
      await callOk(client, 'set_fact', {
        user_id: 'cy',
        category: 'preference',
        key: 'indent_style',
        value: 'spaces',
        layer: 'company',
        company_id: 'acme',
      });
      const tabs = await callOk<{ fact: { memory_id: string; layer: string } }>(client, 'set_fact', {
        user_id: 'cy',
        category: 'preference',
        key: 'indent_style',
        value: 'tabs',
        layer: 'project',
        project_id: 'heron',
      });
      assert.equal(tabs.fact.layer, 'project');
      const facts = await callOk<{
        facts: Array<{ value: string; layer: string; overridden_by?: string }>;
        searched_layers: string[];
      }>(client, 'get_facts', {
        user_id: 'cy',
        project_id: 'heron',
        company_id: 'acme',
      });
      assert.deepEqual(facts.searched_layers, ['user', 'project', 'company']);
      const byLayer = new Map(facts.facts.map((fact) => [fact.layer, fact]));
      assert.equal(byLayer.get('project')?.overridden_by, undefined);
      assert.equal(byLayer.get('company')?.overridden_by, tabs.fact.memory_id);

      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'cy' });
      const context = await callOk<{
        context_items: Array<{ content: string; why_included: string; layer?: string }>;
        retrieval_stats: { searched_layers: string[] };
      }>(client, 'get_relevant_context', {
        user_id: 'cy',
        session_id,
        query: 'what indentation style?',
        token_budget: 500,
        project_id: 'heron',
        company_id: 'acme',
      });
      const indentation = context.context_items.filter((item) => item.content.includes('indent_style'));
      assert.equal(indentation.length, 1);
      assert.match(indentation[0].content, /layer="project"[^>]*>\npreference\/indent_style: tabs\n/);
      assert.match(indentation[0].why_included, /overrides "spaces" \(company layer\)/);
      assert.deepEqual(context.retrieval_stats.searched_layers, ['user', 'session', 'project', 'company']);
    });

    it('promotes only when asked, recording who promoted what and when', async () => {
      const original = await store({ user_id: 'dee', content: 'Release branches are cut every second Tuesday' });
      // Nothing reaches the team layer by itself.
      assert.deepEqual((await recall({ user_id: 'eli', query: 'release branches', team_id: 'platform' })).memories, []);

      const promoted = await callOk<{
        action: string;
        memory_id: string;
        promotion: Record<string, unknown>;
        source_removed: boolean;
      }>(client, 'promote_memory', {
        user_id: 'dee',
        memory_id: original,
        to_layer: 'team',
        team_id: 'platform',
        reason: 'team convention',
      });
      assert.equal(promoted.action, 'promoted');
      assert.equal(promoted.source_removed, false);
      assert.equal(promoted.promotion.promoted_by, 'dee');
      assert.equal(promoted.promotion.from_memory_id, original);
      assert.equal(promoted.promotion.from_layer, 'user');
      assert.equal(promoted.promotion.to_layer, 'team');
      assert.equal(promoted.promotion.reason, 'team convention');
      assert.ok(Math.abs(Date.parse(String(promoted.promotion.promoted_at)) - Date.now()) < 60_000);

      const seen = await recall({ user_id: 'eli', query: 'release branches', team_id: 'platform' });
      assert.deepEqual(
        seen.memories.map((m) => [m.memory_id, m.layer]),
        [[promoted.memory_id, 'team']],
      );
      const [copy] = await t.core.getMemories('team:platform', [promoted.memory_id]);
      assert.equal((copy.metadata.promotion as { promoted_by: string }).promoted_by, 'dee');
      assert.equal(copy.metadata.created_by, 'dee');
      const [source] = await t.core.getMemories('dee', [original]);
      assert.deepEqual(
        (source.metadata.promoted_to as Array<{ to_memory_id: string }>).map((p) => p.to_memory_id),
        [promoted.memory_id],
      );

      const again = await callOk<{ action: string; memory_id: string }>(client, 'promote_memory', {
        user_id: 'dee',
        memory_id: original,
        to_layer: 'team',
        team_id: 'platform',
      });
      assert.deepEqual([again.action, again.memory_id], ['already_promoted', promoted.memory_id]);
      assert.equal(
        (await callError(client, 'promote_memory', { user_id: 'dee', memory_id: original, to_layer: 'user' })).code,
        'INVALID_INPUT',
      );
      assert.equal(
        (
          await callError(client, 'promote_memory', {
            user_id: 'eli',
            memory_id: original,
            to_layer: 'team',
            team_id: 'platform',
          })
        ).code,
        'MEMORY_NOT_FOUND',
      );

      // A shared memory is changed and forgotten by naming its layer; without it, it is not found.
      assert.equal(
        (await callError(client, 'forget_memory', { user_id: 'eli', memory_id: promoted.memory_id })).code,
        'MEMORY_NOT_FOUND',
      );
      await callOk(client, 'update_memory', {
        user_id: 'eli',
        memory_id: promoted.memory_id,
        layer: 'team',
        team_id: 'platform',
        importance: 0.9,
      });
      const moved = await callOk<{ source_removed: boolean; promotion: { from_layer: string } }>(
        client,
        'promote_memory',
        {
          user_id: 'eli',
          memory_id: promoted.memory_id,
          from_layer: 'team',
          to_layer: 'org',
          team_id: 'platform',
          org_id: 'acme',
          move: true,
        },
      );
      assert.deepEqual([moved.source_removed, moved.promotion.from_layer], [true, 'team']);
      assert.deepEqual(
        (await recall({ user_id: 'eli', query: 'release branches', team_id: 'platform', layers: ['team'] })).memories,
        [],
      );
      assert.equal(
        (await recall({ user_id: 'eli', query: 'release branches', org_id: 'acme' })).memories[0]?.layer,
        'org',
      );
    });
  });
}

describe('memory layers on a server bound to the editor user', () => {
  let t: TestCore;
  let client: Client;
  let close: () => Promise<void>;

  before(async () => {
    t = await createTestCore({ config: { layerDefaults: { team_id: 'core-team' } } });
    ({ client, close } = await connectClient({ core: t.core, defaultUserId: 'fay', adminTools: true }));
  });
  after(async () => {
    await close();
    await t.cleanup();
  });

  it('uses the configured team, and refuses teams and orgs it was not configured for', async () => {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      content: 'The core team pairs on every schema change',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      layer: 'team',
    });
    const [memory] = await t.core.getMemories('team:core-team', [stored.memory_id]);
    assert.equal(memory.layer, 'team');
    const found = await callOk<Recalled>(client, 'recall_memories', { query: 'schema change pairing' });
    assert.deepEqual(found.retrieval_breakdown.searched_layers, ['user', 'team']);
    assert.equal(found.memories[0]?.memory_id, stored.memory_id);
    assert.equal(
      (await callError(client, 'recall_memories', { query: 'x', team_id: 'other-team' })).code,
      'UNAUTHORIZED',
    );
    assert.equal(
      (
        await callError(client, 'store_memory', {
          content: 'x y',
          memory_category: 'semantic',
          memory_subtype: 'project',
          layer: 'org',
          org_id: 'acme',
        })
      ).code,
      'UNAUTHORIZED',
    );
  });
});
