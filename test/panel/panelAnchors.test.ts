import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { anchorFor } from '../../src/core/anchors/anchorChecker.ts';
import { anchorSummary } from '../../src/core/anchors/anchorSummary.ts';
import { STALE_TAG } from '../../src/core/anchors/anchorUpdates.ts';
import { PanelController } from '../../src/panel/panelController.ts';
import type { PanelMethod, ParamsOf, ResultOf } from '../../src/shared/panelProtocol.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const USER = 'panel-anchors';

/** The panel's view of anchors: each memory's code status, and the "stale" filter. */
describe('panel anchor status and the stale filter', () => {
  let test: TestCore;
  let controller: PanelController;
  let nextId = 1;
  const ids: Record<string, string> = {};

  async function call<M extends PanelMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const response = await controller.handle({ kind: 'request', id: nextId++, method, params });
    if (!response.ok) throw new Error(`${method} failed: ${response.error.code}: ${response.error.message}`);
    return response.result as ResultOf<M>;
  }

  before(async () => {
    test = await createTestCore();
    const anchor = anchorFor(
      'src/app.ts',
      'export function start() {\n  listen(8080);\n}',
      { start: 1, end: 3 },
      { name: 'start', kind: 'function' },
    );
    const store = async (key: string, content: string, status: 'fresh' | 'changed' | null, tags: string[] = []) => {
      ids[key] = (
        await test.core.storeMemory({
          user_id: USER,
          content,
          memory_category: 'semantic',
          memory_subtype: 'project',
          metadata: { tags, ...(status ? { anchors: [{ ...anchor, status }] } : {}) },
        })
      ).memory_id;
    };
    await store('fresh', 'The server listens on port 8080 from start().', 'fresh');
    await store('stale', 'Startup opens the database before listening.', 'changed', [STALE_TAG]);
    await store('plain', 'Releases are cut on Thursdays.', null);
    controller = new PanelController(
      { core: test.core, userId: () => USER, sessionId: () => 'none', host: 'browser', log: () => undefined },
      { pollMs: 50 },
    );
  });
  after(async () => {
    controller.dispose();
    await test.cleanup();
  });

  it('lists only memories whose code changed or is gone with the stale filter', async () => {
    const page = await call('memory/list', { filter: { stale: true }, sort: 'created', offset: 0, limit: 10 });
    assert.deepEqual(
      page.items.map((memory) => memory.memory_id),
      [ids.stale],
    );
    const all = await call('memory/list', { filter: {}, sort: 'created', offset: 0, limit: 10 });
    assert.equal(all.items.length, 3);
  });

  it('refuses the stale filter combined with tags, which would widen the list', async () => {
    const response = await controller.handle({
      kind: 'request',
      id: nextId++,
      method: 'memory/list',
      params: { filter: { stale: true, tags: ['x'] }, sort: 'created', offset: 0, limit: 10 },
    });
    assert.equal(response.ok, false);
  });

  it("summarises each memory's code status as the list row shows it", async () => {
    const page = await call('memory/list', { filter: {}, sort: 'created', offset: 0, limit: 10 });
    const byId = new Map(page.items.map((memory) => [memory.memory_id, anchorSummary(memory.metadata)]));
    assert.deepEqual(byId.get(ids.fresh), { status: 'fresh', details: 'src/app.ts start: fresh' });
    assert.deepEqual(byId.get(ids.stale), { status: 'changed', details: 'src/app.ts start: changed' });
    assert.equal(byId.get(ids.plain), null);
  });
});
