import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { PanelController } from '../../src/panel/panelController.ts';
import { SESSION, seedMemories, USER } from '../panel/panelHarness.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/panel.md ("Context preview"): previews and panel searches never log access, so looking
 * does not change what is recalled later (SECURITY.md, "Ranking skewed by inflated access
 * counts"). Each request the panel reads memories with is made on its own, the access log is
 * flushed (it is written in batches: a check before the flush sees nothing either way), and no
 * memory may have gained an access or a log row. An agent's recall of the same question does
 * count, so the checks are not vacuous.
 */
const QUESTION = 'how do I deploy the web app';

describe('looking at memories in the panel logs no access', () => {
  let test: TestCore;
  let controller: PanelController;
  let ids: Record<string, string>;
  let nextId = 1;
  before(async () => {
    test = await createTestCore();
    ids = await seedMemories(test.core);
    await test.core.initSession({ user_id: USER, session_id: SESSION });
    controller = new PanelController(
      { core: test.core, userId: () => USER, sessionId: () => SESSION, host: 'browser', log: () => undefined },
      { pollMs: 60_000 },
    );
  });
  after(async () => {
    controller.dispose();
    await test.cleanup();
  });

  async function accessed(): Promise<{ total: number; rows: number }> {
    await test.core.flushAccessLog();
    const memories = (await listAllMemories(test.store, { user_id: USER })).items;
    const rows = (await test.store.listAccessLog(USER, 0, 1_000)).length;
    return { total: memories.reduce((sum, memory) => sum + memory.access_count, 0), rows };
  }

  const requests: Array<[string, () => Record<string, unknown>, (result: unknown) => void]> = [
    [
      'memory/search',
      () => ({ query: 'postgres billing', filter: {}, sort: 'relevance', limit: 20 }),
      (result) => assert.ok((result as { items: unknown[] }).items.length > 0, 'the search found memories'),
    ],
    [
      'memory/search (session scope)',
      () => ({ query: 'deploy', filter: { scope: 'session' }, sort: 'relevance', limit: 20 }),
      () => undefined,
    ],
    ['memory/list', () => ({ filter: {}, sort: 'access_count', offset: 0, limit: 50 }), () => undefined],
    ['memory/get', () => ({ memory_id: ids.postgres2 }), () => undefined],
    [
      'context/preview',
      () => ({ query: QUESTION, token_budget: 2_000 }),
      (result) =>
        assert.ok(
          (result as { context_items: Array<{ source: string }> }).context_items.some(
            (item) => item.source === 'long_term',
          ),
          'the preview packed long-term memories',
        ),
    ],
    ['overview/get', () => ({}), () => undefined],
    ['working/state', () => ({}), () => undefined],
  ];

  for (const [name, params, check] of requests) {
    it(`${name} logs no access`, async () => {
      const before = await accessed();
      const response = await controller.handle({
        kind: 'request',
        id: nextId++,
        method: name.split(' ')[0] as never,
        params: params() as never,
      });
      assert.ok(response.ok, JSON.stringify(response));
      check(response.result);
      assert.deepEqual(await accessed(), before, `${name} counted an access`);
    });
  }

  it('the agent asking the same question does log access (the checks above can fail)', async () => {
    const before = await accessed();
    await test.core.getRelevantContext({ session_id: SESSION, user_id: USER, query: QUESTION, token_budget: 2_000 });
    const after = await accessed();
    assert.ok(after.total > before.total && after.rows > before.rows, JSON.stringify({ before, after }));
  });
});
