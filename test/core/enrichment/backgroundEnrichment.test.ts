import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { enricherFromEnv } from '../../../src/models/enricherFromEnv.ts';
import { ENRICHMENT_PENDING_TAG, enrichmentStateOf } from '../../../src/core/enrichment/pendingEnrichment.ts';
import { RuleBasedExtractor } from '../../../src/core/extraction/ruleBasedExtractor.ts';
import { EXTRACTION_PENDING_TAG } from '../../../src/core/extraction/pendingExtraction.ts';
import type { MemoryCore } from '../../../src/core/memoryCore.ts';
import { searchKeyViews } from '../../../src/core/text/searchKeys.ts';
import { type TestCore, createTestCore } from '../../support/testCore.ts';
import { type FakeChatServer, startFakeChatServer } from '../extraction/fakeChatServer.ts';

const USER = 'user_enrich';
const CONTENT = 'We pinned the deploy job to runner pool blue-7 after the outage.';
const KEYS = { keys: ['build farm', 'runner capacity', 'where do deployments run'] };

function keysReply(keys: unknown = KEYS): { content: string } {
  return { content: JSON.stringify(keys) };
}

/** The enricher a CLI user configures: an OpenAI-compatible endpoint given by environment variables. */
function enricherFor(server: FakeChatServer) {
  const enricher = enricherFromEnv({
    FML_ENRICHMENT_PROVIDER: 'openai',
    FML_ENRICHMENT_BASE_URL: server.baseUrl,
    FML_ENRICHMENT_MODEL: 'key-model',
  });
  assert.ok(enricher);
  return enricher;
}

async function startQueue(core: MemoryCore, server: FakeChatServer, policy = {}, maxAttempts = 4) {
  const queue = await core.startExtraction(new RuleBasedExtractor(), {
    baseDelayMs: 1,
    maxAttempts,
    log: () => undefined,
  });
  core.startEnrichment(enricherFor(server), policy);
  return queue;
}

function store(core: MemoryCore, content = CONTENT, extra: Record<string, unknown> = {}) {
  return core.storeMemory({
    user_id: USER,
    content,
    memory_category: 'procedural',
    memory_subtype: 'workflow',
    ...extra,
  });
}

describe('background enrichment through an OpenAI-compatible endpoint (local fake server)', () => {
  let test: TestCore;
  let server: FakeChatServer;
  beforeEach(async () => {
    test = await createTestCore();
    server = await startFakeChatServer([keysReply()]);
  });
  afterEach(async () => {
    await test.cleanup();
    await server.close();
  });

  it('acknowledges the store before the model answers, then stores the keys and recall finds the memory by them', async () => {
    const queue = await startQueue(test.core, server);
    let release!: () => void;
    server.hold = new Promise((resolve) => (release = resolve));
    const stored = await store(test.core, CONTENT, { keywords: ['runner pool'] });
    // The store returned while the model still holds its answer: the memory is written, tagged pending.
    const [pending] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.ok(pending.tags.includes(ENRICHMENT_PENDING_TAG));
    assert.deepEqual(pending.metadata.search_keys, ['runner pool']);
    release();
    await queue.drain();

    assert.equal(server.requests.length, 1);
    assert.match(server.requests[0].messages[1].content, /runner pool blue-7/);
    const [record] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.equal(record.tags.includes(ENRICHMENT_PENDING_TAG), false);
    assert.deepEqual(record.metadata.search_keys, [
      'runner pool',
      'build farm',
      'runner capacity',
      'where do deployments run',
    ]);
    const views = searchKeyViews(record.metadata, record.created_at);
    assert.deepEqual(
      views.map((view) => [view.key, view.by, view.model ?? null]),
      [
        ['runner pool', 'agent', null],
        ['build farm', 'model', 'openai:key-model'],
        ['runner capacity', 'model', 'openai:key-model'],
        ['where do deployments run', 'model', 'openai:key-model'],
      ],
    );
    assert.deepEqual(enrichmentStateOf(record.metadata), {
      status: 'done',
      model: 'openai:key-model',
      at: views[1].at,
      keys: 3,
    });

    // "farm" is in no word of the memory, only in a key the model gave it.
    const found = await test.core.recall({ user_id: USER, query: 'build farm' }, { logAccess: false });
    assert.equal(found.memories[0]?.memory_id, stored.memory_id);
    assert.equal(queue.stats().enrichment?.keys_added, 3);
  });

  it('re-enriches an edited memory, replacing the model keys but never re-adding a key the user removed', async () => {
    const queue = await startQueue(test.core, server);
    const stored = await store(test.core);
    await queue.drain();
    await test.core.editSearchKeys({
      user_id: USER,
      memory_id: stored.memory_id,
      remove: ['Build Farm'],
      add: ['blue pool'],
    });
    server.replies.splice(0, Infinity, keysReply({ keys: ['build farm', 'ci runners'] }));
    await test.core.updateMemory({
      user_id: USER,
      memory_id: stored.memory_id,
      content: 'We pinned the deploy job to runner pool blue-8 after the outage.',
    });
    await queue.drain();

    assert.equal(server.requests.length, 2);
    assert.match(server.requests[1].messages[1].content, /blue-8/);
    const [record] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.deepEqual(
      searchKeyViews(record.metadata, record.created_at).map((view) => [view.key, view.by]),
      [
        ['blue pool', 'user'],
        ['ci runners', 'model'],
      ],
    );
    assert.deepEqual(record.metadata.search_keys_removed, ['build farm']);
  });

  it('resumes every pending memory after a restart, page after page', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fml-enrich-pages-'));
    try {
      server.replies.splice(0, Infinity, { status: 401 });
      const first = await createTestCore({ dataDir });
      const queue = await startQueue(first.core, server, {}, 1);
      for (let index = 0; index < 7; index++)
        await store(first.core, `Service number ${index} answers on port ${8000 + index} behind the gateway.`);
      await queue.drain();
      await first.cleanup();

      server.replies.splice(0, Infinity, keysReply());
      const second = await createTestCore({ dataDir });
      try {
        const resumed = await startQueue(second.core, server);
        assert.equal(await resumed.resumePending(USER, 3), 7);
        await resumed.drain();
        const { total } = await second.core.listMemories({
          filter: { user_id: USER, tags: [ENRICHMENT_PENDING_TAG] },
          sort: 'created',
          offset: 0,
          limit: 0,
        });
        assert.equal(total, 0);
      } finally {
        await second.cleanup();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('drops keys computed for content that was edited while the model answered, and enriches the new content', async () => {
    const queue = await startQueue(test.core, server);
    let release!: () => void;
    server.hold = new Promise((resolve) => (release = resolve));
    const stored = await store(test.core);
    // The model has the old content in hand when the edit lands.
    await server.received(1);
    await test.core.updateMemory({
      user_id: USER,
      memory_id: stored.memory_id,
      content: 'The deploy job now runs on the shared runner pool green-2.',
    });
    server.replies.splice(0, Infinity, keysReply({ keys: ['stale key'] }), keysReply({ keys: ['fresh key'] }));
    release();
    await queue.drain();
    assert.equal(server.requests.length, 2);
    assert.match(server.requests[1].messages[1].content, /green-2/);
    const [record] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.deepEqual(record.metadata.search_keys, ['fresh key']);
  });

  it('leaves a memory intact while the endpoint fails, retries with backoff, and stores the keys once it answers', async () => {
    server.replies.splice(0, Infinity, { status: 500 }, { status: 503 }, keysReply());
    const queue = await startQueue(test.core, server);
    const stored = await store(test.core);
    const found = await test.core.recall({ user_id: USER, query: 'runner pool blue-7' }, { logAccess: false });
    assert.equal(found.memories[0]?.memory_id, stored.memory_id);
    await queue.drain();
    assert.equal(server.requests.length, 3);
    const stats = queue.stats().enrichment;
    assert.equal(stats?.retries, 2);
    assert.equal(stats?.succeeded, 1);
    const [record] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.equal(record.content, CONTENT);
    assert.ok((record.metadata.search_keys as string[]).includes('build farm'));
  });

  it('survives a restart: a memory the model never answered for is still pending and is enriched by the next process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fml-enrich-restart-'));
    try {
      server.replies.splice(0, Infinity, { status: 500 });
      const first = await createTestCore({ dataDir });
      const queue = await startQueue(first.core, server, {}, 2);
      const stored = await store(first.core);
      await queue.drain();
      const [failed] = await first.core.getMemories(USER, [stored.memory_id]);
      assert.ok(failed.tags.includes(ENRICHMENT_PENDING_TAG));
      assert.equal(enrichmentStateOf(failed.metadata)?.status, 'failed');
      assert.equal(failed.content, CONTENT);
      await first.cleanup();

      server.replies.splice(0, Infinity, keysReply());
      const second = await createTestCore({ dataDir });
      try {
        const resumed = await startQueue(second.core, server);
        assert.equal(await resumed.resumePending(USER), 1);
        await resumed.drain();
        const [record] = await second.core.getMemories(USER, [stored.memory_id]);
        assert.equal(record.tags.includes(ENRICHMENT_PENDING_TAG), false);
        assert.ok((record.metadata.search_keys as string[]).includes('runner capacity'));
      } finally {
        await second.cleanup();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('enrichment sends nothing the user has not allowed', () => {
  let test: TestCore;
  let server: FakeChatServer;
  beforeEach(async () => {
    test = await createTestCore();
    server = await startFakeChatServer([keysReply()]);
  });
  afterEach(async () => {
    await test.cleanup();
    await server.close();
  });

  it('sends nothing and tags nothing when no enricher is configured (consent off)', async () => {
    assert.equal(enricherFromEnv({}), null);
    assert.equal(enricherFromEnv({ FML_ENRICHMENT_PROVIDER: 'none', OPENAI_API_KEY: 'k' }), null);
    const queue = await test.core.startExtraction(new RuleBasedExtractor(), { log: () => undefined });
    const stored = await store(test.core);
    await queue.drain();
    const [record] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.equal(record.tags.includes(ENRICHMENT_PENDING_TAG), false);
    assert.equal(record.metadata.enrichment, undefined);
    assert.equal(server.requests.length, 0);
    assert.equal(queue.stats().enrichment, undefined);
  });

  it('does not send content that held a secret', async () => {
    const queue = await startQueue(test.core, server);
    const stored = await store(
      test.core,
      'The deploy bot uses token ghp_abcdefghijklmnopqrstuvwxyz0123456789 for the release repo.',
    );
    await queue.drain();
    assert.equal(server.requests.length, 0);
    const [record] = await test.core.getMemories(USER, [stored.memory_id]);
    assert.match(record.content, /\[REDACTED:/);
    assert.deepEqual(enrichmentStateOf(record.metadata), {
      status: 'skipped',
      reason: 'secret',
      at: (enrichmentStateOf(record.metadata) as { at: string }).at,
    });
    assert.equal(record.tags.includes(ENRICHMENT_PENDING_TAG), false);
  });

  it('does not send memories about excluded or credential files', async () => {
    const queue = await startQueue(test.core, server, { allowsPath: (path: string) => !path.startsWith('private/') });
    const excluded = await store(test.core, 'The salary bands are in the planning notes, updated every March.', {
      entities: ['file:private/plans.md'],
    });
    const credentials = await store(test.core, 'The staging settings live in the env file of the api service.', {
      metadata: { file: 'services/api/.env' },
    });
    await queue.drain();
    assert.equal(server.requests.length, 0);
    for (const id of [excluded.memory_id, credentials.memory_id]) {
      const [record] = await test.core.getMemories(USER, [id]);
      assert.equal(enrichmentStateOf(record.metadata)?.status, 'skipped');
      assert.equal((enrichmentStateOf(record.metadata) as { reason: string }).reason, 'excluded_file');
    }
  });

  it('does not send a memory forgotten before its turn', async () => {
    const queue = await test.core.startExtraction(new RuleBasedExtractor(), { concurrency: 1, log: () => undefined });
    test.core.startEnrichment(enricherFor(server));
    let release!: () => void;
    server.hold = new Promise((resolve) => (release = resolve));
    await store(test.core, 'The first memory keeps the single model call busy while the others wait.');
    const second = await store(test.core, 'The second memory gets forgotten before the model is asked about it.');
    await store(test.core, 'The third memory waits its turn behind the other two as well.');
    await test.core.forgetMemory({ user_id: USER, memory_id: second.memory_id });
    release();
    await queue.drain();
    const sent = server.requests.map((request) => request.messages[1].content);
    assert.equal(sent.length, 2);
    assert.match(sent[0], /first memory/);
    assert.match(sent[1], /third memory/);
    const [forgotten] = await test.core.getMemories(USER, [second.memory_id]);
    assert.equal(forgotten.metadata.search_keys, undefined);
  });

  it('sends raw working memory to the extractor first, and only settled content to the enrichment model', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const rules = new RuleBasedExtractor();
    const queue = await test.core.startExtraction(
      { name: 'gated-rules', extract: async (input) => (await gate, rules.extract(input)) },
      { log: () => undefined },
    );
    test.core.startEnrichment(enricherFor(server));
    await test.core.initSession({ user_id: USER, session_id: 'sess_enrich' });
    await test.core.addToWorkingMemory({
      session_id: 'sess_enrich',
      user_id: USER,
      content: 'We decided to use pnpm instead of npm in this repository.',
      content_type: 'message',
    });
    const checkpoint = await test.core.checkpointWorkingMemory({
      session_id: 'sess_enrich',
      user_id: USER,
      force: true,
    });
    const [raw] = await test.core.getMemories(USER, checkpoint.memory_ids);
    assert.ok(raw.tags.includes(EXTRACTION_PENDING_TAG));
    assert.equal(raw.tags.includes(ENRICHMENT_PENDING_TAG), false);
    assert.equal(server.requests.length, 0);
    open();
    await queue.drain();
    const { items } = await test.core.listMemories({
      filter: { user_id: USER },
      sort: 'created',
      offset: 0,
      limit: 10,
    });
    assert.ok(items.length > 0);
    for (const memory of items) {
      assert.equal(memory.tags.includes(EXTRACTION_PENDING_TAG), false);
      assert.equal(enrichmentStateOf(memory.metadata)?.status, 'done');
    }
    assert.equal(server.requests.length, items.length);
  });
});
