import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every tool, called by another user with the victim's memory ids and session ids: nothing of
 * the victim is returned, changed, linked, forgotten or exported. Then the same across sessions
 * of one user, and across projects of one user.
 */
const SECRET = 'ISOLATION-SECRET-5150';

describe('isolation across users, sessions and projects through every tool', () => {
  let test: TestCore;
  let victim: Awaited<ReturnType<typeof connectClient>>;
  let attacker: Awaited<ReturnType<typeof connectClient>>;
  let db: DatabaseSync;
  const v: { memory: string; other: string; session: string; item: string } = {
    memory: '',
    other: '',
    session: '',
    item: '',
  };
  let own: { memory: string; session: string };

  /**
   * Every row of every table that belongs to the victim (memories with their links and fact
   * history, embeddings, search-index terms, working memory, sessions, access log, change log),
   * plus every row anywhere else that names one of the victim's memory ids (a link or supersede
   * pointing at the victim from the attacker's side).
   */
  const victimState = () => {
    const tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as Array<{ name: string }>
    ).map((row) => row.name);
    const snapshot: Record<string, unknown[]> = {};
    for (const table of tables) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map(
        (row) => row.name,
      );
      if (!columns.includes('user_id')) continue;
      snapshot[table] = db
        .prepare(
          `SELECT * FROM "${table}" WHERE user_id = 'victim' ORDER BY ${columns.map((column) => `"${column}"`).join(', ')}`,
        )
        .all();
    }
    const victimIds = [v.memory, v.other];
    const mentions = db
      .prepare(
        "SELECT memory_id, related_memories, supersedes, superseded_by FROM long_term_memories WHERE user_id <> 'victim'",
      )
      .all() as Array<Record<string, unknown>>;
    snapshot.mentions_from_others = mentions.filter((row) => victimIds.some((id) => JSON.stringify(row).includes(id)));
    return snapshot;
  };

  before(async () => {
    test = await createTestCore();
    db = (test.store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    victim = await connectClient({ core: test.core, adminTools: true });
    attacker = await connectClient({ core: test.core, adminTools: true });
    v.memory = (
      await callOk<{ memory_id: string }>(victim.client, 'store_memory', {
        user_id: 'victim',
        content: `Victim uses deploy key ${SECRET}`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      })
    ).memory_id;
    v.other = (
      await callOk<{ memory_id: string }>(victim.client, 'store_memory', {
        user_id: 'victim',
        content: `Victim deploys on Fridays ${SECRET}`,
        memory_category: 'episodic',
        memory_subtype: 'decision',
      })
    ).memory_id;
    v.session = (await callOk<{ session_id: string }>(victim.client, 'init_session', { user_id: 'victim' })).session_id;
    v.item = (
      await callOk<{ item_id: string }>(victim.client, 'add_to_working_memory', {
        session_id: v.session,
        content: `Victim task ${SECRET}`,
        content_type: 'task_state',
      })
    ).item_id;
    await callOk(victim.client, 'set_fact', {
      user_id: 'victim',
      category: 'identity',
      key: 'name',
      value: `Victim ${SECRET}`,
    });
    own = {
      memory: (
        await callOk<{ memory_id: string }>(attacker.client, 'store_memory', {
          user_id: 'attacker',
          content: 'Attacker deploy notes',
          memory_category: 'semantic',
          memory_subtype: 'project',
        })
      ).memory_id,
      session: (await callOk<{ session_id: string }>(attacker.client, 'init_session', { user_id: 'attacker' }))
        .session_id,
    };
  });
  after(async () => {
    await attacker.close();
    await victim.close();
    await test.cleanup();
  });

  it("no tool called as another user returns, changes, links, forgets or exports the victim's data", async () => {
    const a = { user_id: 'attacker' };
    const attempts: Record<string, Array<Record<string, unknown>>> = {
      init_session: [{ ...a, session_id: v.session }],
      // On a server not bound to a user a session id is the capability (the bound case is the next
      // test): here the attacker uses their own session and aims at the victim's item id.
      add_to_working_memory: [
        {
          ...a,
          session_id: own.session,
          item_id: v.item,
          content: 'overwritten through another session',
          content_type: 'task_state',
        },
      ],
      get_working_memory: [{ ...a, session_id: own.session, token_budget: 100000 }],
      checkpoint_working_memory: [{ ...a, session_id: own.session, force: true }],
      clear_working_memory: [
        { ...a, session_id: own.session },
        { ...a, session_id: own.session, checkpoint_first: false },
      ],
      store_memory: [
        { ...a, content: 'Correction', memory_category: 'semantic', memory_subtype: 'project', supersedes: v.memory },
      ],
      recall_memories: [
        { ...a, query: `deploy key ${SECRET} Fridays` },
        { ...a, query: 'deploy', entities: [v.memory], tags: [v.memory] },
      ],
      update_memory: [
        { ...a, memory_id: v.memory, content: 'hijacked' },
        { ...a, memory_id: v.memory, importance: 0 },
      ],
      forget_memory: [
        { ...a, memory_id: v.memory },
        { ...a, memory_id: v.memory, hard_delete: true },
      ],
      forget_all_user_memories: [{ ...a, confirmation: 'CONFIRM_DELETE_ALL' }],
      get_relevant_context: [
        { ...a, session_id: v.session, query: 'deploy task', token_budget: 2000 },
        { ...a, session_id: own.session, query: `deploy ${SECRET}`, token_budget: 2000 },
      ],
      set_fact: [{ ...a, category: 'identity', key: 'name', value: 'Mallory' }],
      get_facts: [{ ...a }, { ...a, category: 'identity', key: 'name', include_history: true }],
      delete_fact: [{ ...a, category: 'identity', key: 'name' }],
      find_memory_contradictions: [{ ...a }],
      supersede_memory: [
        { ...a, memory_id: v.memory, superseded_by: own.memory },
        { ...a, memory_id: own.memory, superseded_by: v.memory },
      ],
      link_memories: [
        { ...a, memory_id: own.memory, other_memory_id: v.memory },
        { ...a, memory_id: v.memory, other_memory_id: v.other },
      ],
      unlink_memories: [{ ...a, memory_id: v.memory, other_memory_id: v.other }],
      get_related_memories: [
        { ...a, memory_id: v.memory },
        { ...a, memory_id: own.memory, max_depth: 5 },
      ],
      auto_link_similar: [
        { ...a, memory_id: v.memory },
        { ...a, memory_id: own.memory, threshold: 0 },
      ],
      memory_prune: [{ ...a, max_score: 1, older_than_days: 1 }],
      run_daily_maintenance: [{ ...a, consolidation: { threshold: 0.5 }, prune: { max_score: 1 } }],
      memory_quality_report: [{ ...a }],
      get_memory_analytics: [{ ...a }],
      get_recent_calls: [{ ...a, limit: 200 }],
      get_recent_errors: [{ ...a, limit: 200 }],
      export_memories: [{ ...a }],
      import_memories: [
        {
          ...a,
          data: {
            format: 'fml-export',
            format_version: 1,
            memories: [
              {
                memory_id: v.memory,
                user_id: 'victim',
                content: 'overwritten',
                memory_category: 'semantic',
                memory_subtype: 'project',
              },
            ],
          },
        },
      ],
      promote_memory: [
        { ...a, memory_id: v.memory, to_layer: 'team', team_id: 'attackers', move: true },
        { ...a, memory_id: v.memory, to_layer: 'agent', agent_id: 'mallory' },
      ],
    };
    assert.deepEqual(Object.keys(attempts).sort(), TOOLS.map((tool) => tool.name).sort(), 'every tool is tried');
    const before = victimState();
    for (const [tool, calls] of Object.entries(attempts)) {
      for (const args of calls) {
        const result = await attacker.client.callTool({ name: tool, arguments: args });
        const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
        assert.ok(!text.includes(SECRET), `${tool} leaked the victim's data: ${text.slice(0, 300)}`);
      }
    }
    assert.ok(
      before.long_term_memories.length >= 3 &&
        before.working_memory_items.length === 1 &&
        before.lexical_documents.length >= 3,
      "the snapshot holds the victim's data",
    );
    assert.ok(
      before.memory_access_log && before.embeddings && before.session_contexts.length === 1,
      'and covers access log, vectors and sessions',
    );
    assert.deepEqual(
      victimState(),
      before,
      'no row of the victim changed, in any table, and nothing of the attacker points at the victim',
    );
    const facts = await callOk<{ facts: Array<{ value: string }> }>(victim.client, 'get_facts', { user_id: 'victim' });
    assert.deepEqual(
      facts.facts.map((fact) => fact.value),
      [`Victim ${SECRET}`],
    );
  });

  it("working-memory tools refuse another user's session on a server bound to a user", async () => {
    const bound = await connectClient({ core: test.core, defaultUserId: 'attacker', adminTools: true });
    try {
      for (const [tool, args] of [
        ['add_to_working_memory', { session_id: v.session, content: 'injected', content_type: 'system' }],
        ['get_working_memory', { session_id: v.session }],
        ['checkpoint_working_memory', { session_id: v.session, force: true }],
        ['clear_working_memory', { session_id: v.session }],
        ['init_session', { session_id: v.session }],
      ] as const) {
        const result = await bound.client.callTool({ name: tool, arguments: args });
        assert.equal(result.isError, true, tool);
        const text = (result.content as Array<{ text: string }>)[0].text;
        assert.match(text, /^SESSION_NOT_FOUND/, tool);
        assert.ok(!text.includes(SECRET));
      }
    } finally {
      await bound.close();
    }
    const items = await callOk<{ items: Array<{ content: string }> }>(victim.client, 'get_working_memory', {
      session_id: v.session,
    });
    assert.deepEqual(
      items.items.map((item) => item.content),
      [`Victim task ${SECRET}`],
    );
  });

  it("keeps sessions of one user apart: one session's working memory never shows in another's", async () => {
    const second = (await callOk<{ session_id: string }>(victim.client, 'init_session', { user_id: 'victim' }))
      .session_id;
    const state = await callOk<{ items: unknown[] }>(victim.client, 'get_working_memory', { session_id: second });
    assert.equal(state.items.length, 0);
    const context = await callOk<{ context_items: Array<{ content: string; source?: string }> }>(
      victim.client,
      'get_relevant_context',
      { user_id: 'victim', session_id: second, query: 'Victim task', token_budget: 2000 },
    );
    assert.ok(
      !context.context_items.some((item) => item.content === `Victim task ${SECRET}`),
      "the other session's task is not working memory here",
    );
  });

  it('keeps projects of one user apart when the server is scoped to a project', async () => {
    const store = (project: string) =>
      new MemoryCore({ store: new SqliteMemoryStore({ dataDir: test.dataDir }), defaultProjectId: project });
    const [alpha, beta] = [store('project-alpha'), store('project-beta')];
    await alpha.open();
    await beta.open();
    const [inAlpha, inBeta] = [
      await connectClient({ core: alpha, adminTools: true }),
      await connectClient({ core: beta, adminTools: true }),
    ];
    try {
      const stored = await callOk<{ memory_id: string }>(inAlpha.client, 'store_memory', {
        user_id: 'dev',
        content: `Alpha uses the orange queue ${SECRET}`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      const { session_id } = await callOk<{ session_id: string }>(inBeta.client, 'init_session', { user_id: 'dev' });
      const recalled = await callOk<{ memories: unknown[] }>(inBeta.client, 'recall_memories', {
        user_id: 'dev',
        query: 'orange queue',
      });
      assert.equal(recalled.memories.length, 0);
      const context = await callOk<{ context_items: Array<{ content: string }> }>(
        inBeta.client,
        'get_relevant_context',
        { user_id: 'dev', session_id, query: 'orange queue', token_budget: 1000 },
      );
      assert.ok(!JSON.stringify(context).includes(SECRET));
      const mine = await callOk<{ memories: Array<{ memory_id: string }> }>(inAlpha.client, 'recall_memories', {
        user_id: 'dev',
        query: 'orange queue',
      });
      assert.deepEqual(
        mine.memories.map((memory) => memory.memory_id),
        [stored.memory_id],
      );
    } finally {
      await inAlpha.close();
      await inBeta.close();
      await alpha.close();
      await beta.close();
    }
  });
});
