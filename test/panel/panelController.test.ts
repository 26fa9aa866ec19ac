import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { PanelController } from '../../src/panel/panelController.ts';
import type { PanelMethod, PanelNotification, ParamsOf, ResultOf } from '../../src/shared/panelProtocol.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';
import { SESSION, USER, seedMemories } from './panelHarness.ts';

describe('PanelController', () => {
  let testCore: TestCore;
  let controller: PanelController;
  let ids: Record<string, string>;
  let nextId = 1;

  async function call<M extends PanelMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const response = await controller.handle({ kind: 'request', id: nextId++, method, params });
    if (!response.ok) throw new Error(`${method} failed: ${response.error.code}: ${response.error.message}`);
    return response.result as ResultOf<M>;
  }

  async function callError(method: string, params: unknown): Promise<{ code: string; message: string }> {
    const response = await controller.handle({ kind: 'request', id: nextId++, method, params });
    assert.equal(response.ok, false, `${method} unexpectedly succeeded`);
    return (response as { error: { code: string; message: string } }).error;
  }

  before(async () => {
    testCore = await createTestCore();
    ids = await seedMemories(testCore.core);
    controller = new PanelController(
      { core: testCore.core, userId: () => USER, sessionId: () => SESSION, host: 'browser', log: () => undefined },
      { pollMs: 50 },
    );
  });

  after(async () => {
    controller.dispose();
    await testCore.cleanup();
  });

  it('answers ready with the taxonomy, scopes and the session it shows', async () => {
    const init = await call('panel/ready', {});
    assert.equal(init.user_id, USER);
    assert.equal(init.session_id, SESSION);
    assert.deepEqual(init.taxonomy.preference, ['communication', 'style', 'tools', 'boundaries']);
    assert.ok(init.scopes.includes('session'));
    assert.ok(!init.scopes.includes('project'), 'no project is active, so the project scope is not offered');
  });

  it('lists in pages with a stable total and filters by category, source, entity and tag', async () => {
    const first = await call('memory/list', { filter: {}, sort: 'created', offset: 0, limit: 10 });
    const second = await call('memory/list', { filter: {}, sort: 'created', offset: 10, limit: 10 });
    assert.equal(first.total, 46, '47 stored, one superseded and hidden');
    assert.equal(first.items.length, 10);
    assert.equal(new Set([...first.items, ...second.items].map((memory) => memory.memory_id)).size, 20);
    const procedural = await call('memory/list', {
      filter: { categories: ['procedural'] },
      sort: 'recency',
      offset: 0,
      limit: 50,
    });
    assert.deepEqual(procedural.items.map((memory) => memory.memory_subtype).sort(), ['debugging', 'workflow']);
    const byEntity = await call('memory/list', {
      filter: { entities: ['Redis'] },
      sort: 'recency',
      offset: 0,
      limit: 50,
    });
    assert.deepEqual(
      byEntity.items.map((memory) => memory.memory_id),
      [ids.redis],
    );
    const byTag = await call('memory/list', {
      filter: { tags: ['formatting'] },
      sort: 'recency',
      offset: 0,
      limit: 50,
    });
    assert.deepEqual(
      byTag.items.map((memory) => memory.memory_id),
      [ids.tabs],
    );
    const bySession = await call('memory/list', {
      filter: { scope: 'session' },
      sort: 'recency',
      offset: 0,
      limit: 50,
    });
    assert.deepEqual(
      bySession.items.map((memory) => memory.memory_id),
      [ids.redis],
    );
    const future = await call('memory/list', {
      filter: { after: '2999-01-01' },
      sort: 'recency',
      offset: 0,
      limit: 50,
    });
    assert.equal(future.total, 0);
  });

  it('searches with the agent recall, a per-signal breakdown, and without logging access', async () => {
    const result = await call('memory/search', { query: 'postgres billing', filter: {}, sort: 'relevance', limit: 20 });
    const top = result.items[0];
    assert.equal(top.memory_id, ids.postgres2);
    assert.ok(top.score_breakdown.text_match > 0);
    assert.ok(top.why_matched.length > 0);
    assert.equal(typeof result.breakdown.mode, 'string');
    // The access log is written in batches: read the counts after its flush, or they are 0 either way.
    await testCore.core.flushAccessLog();
    const [record] = await testCore.core.getMemories(USER, [top.memory_id]);
    assert.equal(record.access_count, 0, 'browsing in the panel is not the agent reading a memory');
    const pinnedOnly = await call('memory/search', {
      query: 'postgres billing',
      filter: { pinned: true },
      sort: 'relevance',
      limit: 20,
    });
    assert.equal(pinnedOnly.items.length, 0);
  });

  it('opens a memory with its supersedes chain', async () => {
    const detail = await call('memory/get', { memory_id: ids.postgres2 });
    assert.deepEqual(
      detail.chain.map((summary) => summary.memory_id),
      [ids.postgres, ids.postgres2],
    );
    assert.equal((await callError('memory/get', { memory_id: 'mem_missing' })).code, 'MEMORY_NOT_FOUND');
  });

  it('pins, edits and reclassifies', async () => {
    const pinned = await call('memory/update', { memory_id: ids.kafka, pinned: true });
    assert.equal(pinned.pinned, true);
    const pinnedList = await call('memory/list', { filter: { pinned: true }, sort: 'recency', offset: 0, limit: 50 });
    assert.deepEqual(
      pinnedList.items.map((memory) => memory.memory_id),
      [ids.kafka],
    );
    const edited = await call('memory/update', {
      memory_id: ids.kafka,
      content: 'Event ingestion uses Kafka with 24 partitions per topic.',
      memory_category: 'semantic',
      memory_subtype: 'environment',
      importance: 0.8,
      tags: ['infra'],
    });
    assert.equal(edited.memory_subtype, 'environment');
    assert.deepEqual(edited.tags, ['infra']);
    assert.equal(edited.importance, 0.8);
    assert.deepEqual(edited.entities, ['Kafka'], 'an entity the text still names is kept');
    const rewritten = await call('memory/update', {
      memory_id: ids.kafka,
      content: 'Event ingestion moved from the old broker to `NatsJetStream` in services/ingest/.',
    });
    assert.deepEqual(
      rewritten.entities,
      ['path:services/ingest/', 'symbol:NatsJetStream'],
      'an edit re-extracts entities and drops those of text that is gone',
    );
    const wrong = await callError('memory/update', {
      memory_id: ids.kafka,
      memory_category: 'semantic',
      memory_subtype: 'style',
    });
    assert.equal(wrong.code, 'INVALID_INPUT');
  });

  it('an edit of an older copy is CONFLICT (changed elsewhere) and the newer content stays', async () => {
    const shown = (await call('memory/get', { memory_id: ids.note1 })).memory;
    // Another window or an agent rewrites the memory after the panel showed it.
    await testCore.core.updateMemory({
      memory_id: ids.note1,
      user_id: USER,
      content: 'Rewritten by an agent meanwhile.',
    });
    const stale = await callError('memory/update', {
      memory_id: ids.note1,
      content: 'The panel user typed over the copy they were shown.',
      expected_version: shown.version,
    });
    assert.equal(stale.code, 'CONFLICT');
    const [row] = await testCore.core.getMemories(USER, [ids.note1]);
    assert.equal(row.content, 'Rewritten by an agent meanwhile.');
    assert.equal(row.version, shown.version + 1);
    const fresh = await call('memory/update', { memory_id: ids.note1, importance: 0.7, expected_version: row.version });
    assert.equal(fresh.importance, 0.7);
  });

  it('forgets to the trash, restores, and purges only with confirmation', async () => {
    const forgotten = await call('memory/forget', { memory_ids: [ids.note1, ids.note2] });
    assert.deepEqual(forgotten.memory_ids, [ids.note1, ids.note2]);
    const trash = await call('memory/list', { filter: { view: 'trash' }, sort: 'recency', offset: 0, limit: 50 });
    assert.deepEqual(trash.items.map((memory) => memory.memory_id).sort(), [ids.note1, ids.note2].sort());
    await call('memory/restore', { memory_ids: [ids.note1] });
    const unconfirmed = await callError('memory/purge', { memory_ids: [ids.note2] });
    assert.equal(unconfirmed.code, 'CONFIRMATION_REQUIRED');
    await call('memory/purge', { memory_ids: [ids.note2], confirm: true });
    assert.deepEqual(
      await testCore.core
        .getMemories(USER, [ids.note1, ids.note2])
        .then((rows) => rows.map((row) => [row.memory_id, row.deleted_at])),
      [[ids.note1, null]],
    );
  });

  it('manages working memory: pin, evict, checkpoint', async () => {
    const view = await call('working/state', {});
    assert.equal(view.state?.items.length, 3);
    const [task, message] = view.state!.items;
    const pinned = await call('working/pin', { item_id: message.item_id, pinned: true });
    assert.equal(pinned.state?.items.find((item) => item.item_id === message.item_id)?.pinned, true);
    const evicted = await call('working/evict', { item_id: task.item_id });
    assert.equal(evicted.state?.items.length, 2);
    const checkpoint = await call('working/checkpoint', {});
    assert.match(checkpoint.message, /Checkpoint saved/);
  });

  it('names the user readably and says where the shown session came from', async () => {
    const session = await testCore.core.getSession(SESSION);
    const ownWindow = await call('working/state', {});
    assert.deepEqual(ownWindow.session, {
      started_at: session!.created_at,
      last_activity: session!.last_activity,
      origin: 'window',
      reload_limit_ms: null,
    });
    assert.equal((await call('panel/ready', {})).user_label, USER, 'without a separate label the id is the name');

    const reloaded = new PanelController(
      {
        core: testCore.core,
        userId: () => USER,
        userLabel: () => 'alice',
        sessionId: () => SESSION,
        sessionContinuity: () => ({ continued: true, reloadLimitMs: 120_000 }),
        host: 'vscode',
        log: () => undefined,
      },
      { pollMs: 60_000 },
    );
    const latest = new PanelController(
      { core: testCore.core, userId: () => USER, sessionId: () => undefined, host: 'browser', log: () => undefined },
      { pollMs: 60_000 },
    );
    try {
      const ask = async <M extends PanelMethod>(panel: PanelController, method: M): Promise<ResultOf<M>> => {
        const response = await panel.handle({ kind: 'request', id: 1, method, params: {} as ParamsOf<M> });
        assert.ok(response.ok, JSON.stringify(response));
        return response.result as ResultOf<M>;
      };
      const init = await ask(reloaded, 'panel/ready');
      assert.deepEqual([init.user_id, init.user_label], [USER, 'alice']);
      assert.deepEqual((await ask(reloaded, 'working/state')).session, {
        started_at: session!.created_at,
        last_activity: session!.last_activity,
        origin: 'reload',
        reload_limit_ms: 120_000,
      });
      // Outside an editor the panel shows the latest session, and says so.
      assert.equal((await ask(latest, 'working/state')).session?.origin, 'latest');
    } finally {
      reloaded.dispose();
      latest.dispose();
    }
  });

  it('previews context without logging access', async () => {
    const preview = await call('context/preview', { query: 'how do I deploy the web app', token_budget: 500 });
    assert.ok(preview.context_items.some((item) => item.memory_id === ids.deploy));
    assert.ok(preview.total_tokens <= 500);
    await testCore.core.flushAccessLog();
    const [record] = await testCore.core.getMemories(USER, [ids.deploy]);
    assert.equal(record.access_count, 0);
  });

  it('previews context in a browser before any session exists, from long-term memory alone', async () => {
    const stranger = 'user_without_sessions';
    const stored = await testCore.core.storeMemory({
      user_id: stranger,
      content: 'Deploy the web app with make deploy-web after the smoke tests pass.',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
    });
    const browser = new PanelController(
      {
        core: testCore.core,
        userId: () => stranger,
        sessionId: () => undefined,
        host: 'browser',
        log: () => undefined,
      },
      { pollMs: 50 },
    );
    try {
      const response = await browser.handle({
        kind: 'request',
        id: 1,
        method: 'context/preview',
        params: { query: 'how do I deploy the web app', token_budget: 500 },
      });
      assert.ok(response.ok, JSON.stringify(response));
      const preview = response.result as ResultOf<'context/preview'>;
      assert.deepEqual(
        preview.context_items.map((item) => item.memory_id),
        [stored.memory_id],
        "only the stranger's own memory, no working items",
      );
      assert.deepEqual(await testCore.core.listSessions(stranger), [], 'a preview creates no session');
      // Another user's session id never lends its working items to a preview.
      const borrowed = await testCore.core.getRelevantContext(
        { session_id: SESSION, user_id: stranger, query: 'deploy', token_budget: 500 },
        { allowMissingSession: true },
      );
      assert.ok(borrowed.context_items.every((item) => item.source !== 'working_memory'));
    } finally {
      browser.dispose();
    }
  });

  it('reports the overview with growth and recall activity', async () => {
    const overview = await call('overview/get', {});
    assert.equal(overview.backend.kind, 'sqlite');
    assert.equal(overview.growth.length, 12);
    assert.equal(overview.growth.at(-1)?.count, overview.memories);
    assert.ok(
      overview.recall_activity.reduce((sum, point) => sum + point.count, 0) >= 1,
      'the searches above were counted',
    );
    assert.ok(overview.recent_errors.some((entry) => entry.code === 'MEMORY_NOT_FOUND'));
  });

  it('lists the recent recalls with the memories each handed out, agent context included', async () => {
    const agent = await testCore.core.recall({ user_id: USER, query: 'Redis cache' });
    const context = await testCore.core.getRelevantContext({
      session_id: SESSION,
      user_id: USER,
      query: 'Redis cache',
      token_budget: 400,
    });
    await testCore.core.recall({ user_id: USER, query: 'zeppelin maintenance schedule' });
    const { recent_recalls: recalls } = await call('overview/get', {});
    const [empty, packed, recalled] = recalls;
    assert.deepEqual(
      [empty?.tool, empty?.query, empty?.memories],
      ['recall_memories', 'zeppelin maintenance schedule', []],
    );
    assert.equal(packed?.tool, 'get_relevant_context');
    assert.ok(packed!.memories.length > 0, 'the context held memories');
    // What was packed into the agent's context, not every candidate the search considered.
    assert.deepEqual(
      packed?.memories.map((memory) => memory.memory_id),
      context.context_items.filter((item) => item.memory_id).map((item) => item.memory_id),
    );
    assert.equal(recalled?.tool, 'recall_memories');
    assert.deepEqual(
      recalled?.memories.map((memory) => memory.memory_id),
      agent.memories.map((memory) => memory.memory_id),
    );
    assert.ok(
      recalled!.memories.some((memory) => memory.memory_id === ids.redis && /redis/i.test(memory.summary)),
      'each memory with a readable summary',
    );
    // The panel's searches and context previews above handed nothing to an agent: not listed.
    assert.deepEqual([...new Set(recalls.map((recall) => recall.tool))].sort(), [
      'get_relevant_context',
      'recall_memories',
    ]);
  });

  it('rejects malformed messages with typed codes', async () => {
    assert.equal((await controller.handle('nonsense')).ok, false);
    assert.equal((await callError('memory/drop_table', {})).code, 'UNKNOWN_METHOD');
    const badLimit = await callError('memory/list', { filter: {}, sort: 'recency', offset: 0, limit: 5000 });
    assert.equal(badLimit.code, 'INVALID_INPUT');
    assert.match(badLimit.message, /limit/);
    assert.equal(
      (await callError('memory/list', { filter: { categories: ['bogus'] }, sort: 'recency', offset: 0, limit: 5 }))
        .code,
      'INVALID_INPUT',
    );
    assert.equal(
      (await callError('memory/list', { filter: { after: 'yesterday' }, sort: 'recency', offset: 0, limit: 5 })).code,
      'INVALID_INPUT',
    );
  });

  it('notifies watchers of in-process changes and of other processes’ writes', async () => {
    const received: PanelNotification[] = [];
    const watch = controller.watch((notification) => received.push(notification));
    try {
      await testCore.core.updateMemory({ memory_id: ids.deploy, user_id: USER, importance: 0.75 });
      assert.ok(received.some((n) => n.type === 'memories-changed' && n.memory_ids.includes(ids.deploy)));
      // The watcher treats the token move of an in-process write as announced until its next poll
      // rebases; wait for two completed polls (so one started after the write), not a fixed delay.
      // The core polls the store's foreign token (moved only by other processes' commits).
      const store = testCore.store as { foreignChangeToken: () => Promise<string> };
      const foreignChangeToken = store.foreignChangeToken;
      let polls = 0;
      store.foreignChangeToken = async () => {
        const token = await foreignChangeToken.call(testCore.store);
        polls += 1;
        return token;
      };
      try {
        while (polls < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        store.foreignChangeToken = foreignChangeToken;
      }
      // A second core on the same directory stands in for an MCP server process the agent runs.
      const other = new MemoryCore({ store: new SqliteMemoryStore({ dataDir: testCore.dataDir }) });
      await other.open();
      try {
        received.length = 0;
        await other.storeMemory({
          user_id: USER,
          content: 'Written by another process.',
          memory_category: 'semantic',
          memory_subtype: 'project',
        });
        // The bound only keeps a broken poll from hanging the run: 3 s was too short on a busy machine.
        const deadline = Date.now() + 30_000;
        while (!received.some((n) => n.type === 'store-changed') && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 25));
        assert.ok(
          received.some((n) => n.type === 'store-changed'),
          'the change token poll noticed the other writer',
        );
      } finally {
        await other.close();
      }
    } finally {
      watch.dispose();
    }
  });
});
