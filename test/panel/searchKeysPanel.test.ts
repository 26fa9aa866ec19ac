import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enricherFromEnv } from '../../src/models/enricherFromEnv.ts';
import { RuleBasedExtractor } from '../../src/core/extraction/ruleBasedExtractor.ts';
import { PanelController } from '../../src/panel/panelController.ts';
import type { PanelMethod, ParamsOf, ResultOf } from '../../src/shared/panelProtocol.ts';
import { type FakeChatServer, startFakeChatServer } from '../core/extraction/fakeChatServer.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const USER = 'user_panel_keys';
const CHECK = {
  provider: 'ollama',
  reachable: true,
  model: 'nomic-embed-text:latest',
  dimensions: 768,
  message: 'Ollama at http://127.0.0.1:11434: embedding with nomic-embed-text:latest (768 dimensions).',
  at: '2026-01-01T00:00:00.000Z',
};

describe('search keys in the panel', () => {
  let test: TestCore;
  let server: FakeChatServer;
  let controller: PanelController;
  let memoryId: string;
  let nextId = 1;

  async function call<M extends PanelMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const response = await controller.handle({ kind: 'request', id: nextId++, method, params });
    if (!response.ok) throw new Error(`${method} failed: ${response.error.code}: ${response.error.message}`);
    return response.result as ResultOf<M>;
  }

  before(async () => {
    server = await startFakeChatServer([
      { content: JSON.stringify({ keys: ['elephant logo', 'which database did we choose'] }) },
    ]);
    test = await createTestCore({ embeddingCheck: CHECK });
    const queue = await test.core.startExtraction(new RuleBasedExtractor(), { log: () => undefined });
    test.core.startEnrichment(
      enricherFromEnv({
        FML_ENRICHMENT_PROVIDER: 'openai',
        FML_ENRICHMENT_BASE_URL: server.baseUrl,
        FML_ENRICHMENT_MODEL: 'keys-1',
      })!,
    );
    const stored = await test.core.storeMemory({
      user_id: USER,
      content: 'Decision: chose PostgreSQL over MySQL because of JSONB support and better CTE performance.',
      memory_category: 'episodic',
      memory_subtype: 'decision',
      keywords: ['postgres'],
    });
    memoryId = stored.memory_id;
    await queue.drain();
    controller = new PanelController(
      { core: test.core, userId: () => USER, sessionId: () => undefined, host: 'browser', log: () => undefined },
      { pollMs: 50 },
    );
  });

  after(async () => {
    controller.dispose();
    await test.cleanup();
    await server.close();
  });

  it("shows each key with who added it, and the model's name and time", async () => {
    const detail = await call('memory/get', { memory_id: memoryId });
    assert.deepEqual(
      detail.search_keys.map(({ key, by, model }) => ({ key, by, model: model ?? null })),
      [
        { key: 'postgres', by: 'agent', model: null },
        { key: 'elephant logo', by: 'model', model: 'openai:keys-1' },
        { key: 'which database did we choose', by: 'model', model: 'openai:keys-1' },
      ],
    );
    assert.ok(detail.search_keys.every((view) => !Number.isNaN(Date.parse(view.at))));
    assert.equal(detail.enrichment?.status, 'done');
  });

  it('lets the user remove a key (recall no longer finds the memory by it) and add one of their own', async () => {
    const before = await call('memory/search', { query: 'elephant logo', filter: {}, sort: 'relevance', limit: 10 });
    assert.equal(before.items[0]?.memory_id, memoryId);
    const detail = await call('memory/searchKeys', {
      memory_id: memoryId,
      remove: ['elephant logo'],
      add: ['primary datastore'],
    });
    assert.deepEqual(
      detail.search_keys.map(({ key, by }) => [key, by]),
      [
        ['postgres', 'agent'],
        ['which database did we choose', 'model'],
        ['primary datastore', 'user'],
      ],
    );
    const [record] = await test.core.getMemories(USER, [memoryId]);
    assert.deepEqual(record.metadata.search_keys, ['postgres', 'which database did we choose', 'primary datastore']);
    const removed = await call('memory/search', { query: 'elephant logo', filter: {}, sort: 'relevance', limit: 10 });
    assert.equal(
      removed.items.some((item) => item.memory_id === memoryId),
      false,
    );
    const added = await call('memory/search', { query: 'primary datastore', filter: {}, sort: 'relevance', limit: 10 });
    assert.equal(added.items[0]?.memory_id, memoryId);
  });

  it('refuses an edit that names no key, or a key that is a credential', async () => {
    const empty = await controller.handle({
      kind: 'request',
      id: nextId++,
      method: 'memory/searchKeys',
      params: { memory_id: memoryId },
    });
    assert.equal(empty.ok, false);
    assert.equal(!empty.ok && empty.error.code, 'INVALID_INPUT');
    const wrongType = await controller.handle({
      kind: 'request',
      id: nextId++,
      method: 'memory/searchKeys',
      params: { memory_id: memoryId, add: 'postgres' },
    });
    assert.equal(!wrongType.ok && wrongType.error.code, 'INVALID_INPUT');
    const secret = await controller.handle({
      kind: 'request',
      id: nextId++,
      method: 'memory/searchKeys',
      params: { memory_id: memoryId, add: ['ghp_abcdefghijklmnopqrstuvwxyz0123456789'] },
    });
    assert.equal(!secret.ok && secret.error.code, 'INVALID_INPUT');
    const [record] = await test.core.getMemories(USER, [memoryId]);
    assert.equal((record.metadata.search_keys as string[]).length, 3);
  });

  it("shows enrichment and the embedding startup check in the Overview and the core's stats", async () => {
    const overview = await call('overview/get', {});
    assert.deepEqual(overview.embeddings.startup_check, CHECK);
    assert.equal(overview.enrichment?.enricher, 'openai:keys-1');
    assert.equal(overview.enrichment?.succeeded, 1);
    assert.equal(overview.enrichment?.keys_added, 2);
    const stats = await test.core.stats(USER);
    assert.equal(stats.embeddings.startup_check?.dimensions, 768);
  });
});
