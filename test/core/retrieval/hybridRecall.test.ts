import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HashingTestEmbeddings } from '../../../src/embeddings/hashingTestEmbeddings.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/**
 * The fusion path with vectors from the deterministic hashing provider (not a semantic model:
 * it shares character trigrams, so "deploying" and "deployment" land close).
 */
describe('hybrid recall with an embedding provider', () => {
  const provider = new HashingTestEmbeddings(128);
  let test: TestCore;

  before(async () => {
    test = await createTestCore({ embeddings: provider, embeddingTimeoutMs: 300 });
  });
  after(() => test.cleanup());

  it('stores vectors, fuses both signals and says which matched', async () => {
    const stored = await test.core.storeMemory({
      user_id: 'h',
      content: 'Deployment of the billing service happens through Argo',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
    });
    assert.equal(stored.embedding_status, 'embedded');
    await test.core.storeMemory({
      user_id: 'h',
      content: 'Lunch menu for Friday',
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
    const result = await test.core.recall({ user_id: 'h', query: 'deploying billing', min_similarity: 0.1 });
    assert.equal(result.retrieval_breakdown.mode, 'hybrid');
    assert.equal(result.retrieval_breakdown.embedding_model, provider.model);
    assert.ok(result.retrieval_breakdown.vector_method);
    const top = result.memories[0];
    assert.equal(top.memory_id, stored.memory_id);
    assert.ok(top.score_breakdown.semantic !== null && top.score_breakdown.semantic > 0);
    assert.ok(top.score_breakdown.signals.includes('semantic'));
  });

  it('finds a memory by its vector alone when no term matches, above min_similarity only', async () => {
    await test.core.storeMemory({
      user_id: 'v',
      content: 'kubernetes',
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    const loose = await test.core.recall({ user_id: 'v', query: 'kubernetess', min_similarity: 0.2 });
    assert.equal(loose.memories.length, 1);
    assert.deepEqual(loose.memories[0].score_breakdown.signals, ['semantic']);
    const strict = await test.core.recall({ user_id: 'v', query: 'kubernetess', min_similarity: 0.99 });
    assert.equal(strict.memories.length, 0);
  });

  it('degrades to full-text when the provider fails, stores as pending, and backfills later', async () => {
    provider.failing = true;
    try {
      const stored = await test.core.storeMemory({
        user_id: 'd',
        content: 'Rotate the signing keys every quarter',
        memory_category: 'procedural',
        memory_subtype: 'workflow',
      });
      assert.equal(stored.embedding_status, 'pending');
      const recalled = await test.core.recall({ user_id: 'd', query: 'signing keys' });
      assert.match(recalled.retrieval_breakdown.mode, /^lexical \(embedding unavailable/);
      assert.equal(recalled.memories[0]?.memory_id, stored.memory_id);
      assert.ok((await test.core.stats('d')).embeddings.last_error, 'the provider failure is reported');
    } finally {
      provider.failing = false;
    }
    assert.ok((await test.core.backfillEmbeddings()) >= 1);
    const [memory] = await test.core.getMemories('d', [
      (await test.core.recall({ user_id: 'd', query: 'signing keys' })).memories[0].memory_id,
    ]);
    assert.equal(memory.embedding_model, provider.model);
  });

  it('never compares vectors across models: a model change re-embeds lazily', async () => {
    const other = await createTestCore({ dataDir: test.dataDir, embeddings: new HashingTestEmbeddings(64) });
    try {
      const before = await other.core.recall({ user_id: 'h', query: 'deploying billing', min_similarity: 0.1 });
      assert.ok(
        before.memories.every((memory) => memory.score_breakdown.semantic === null),
        'old-model vectors are not compared',
      );
      assert.ok((await other.core.backfillEmbeddings(100)) >= 2);
      const afterBackfill = await other.core.recall({ user_id: 'h', query: 'deploying billing', min_similarity: 0.1 });
      assert.ok(afterBackfill.memories.some((memory) => memory.score_breakdown.semantic !== null));
    } finally {
      await other.core.close();
    }
  });

  it('stops waiting for a slow provider and answers from full-text', async () => {
    provider.delayMs = 2000;
    try {
      const result = await test.core.recall({ user_id: 'h', query: 'billing' });
      assert.match(
        result.retrieval_breakdown.mode,
        /embedding unavailable: The embedding provider did not answer within 300 ms/,
      );
      assert.ok(result.memories.length > 0);
    } finally {
      provider.delayMs = 0;
    }
  });
});

describe('background re-embedding', () => {
  it('embeds memories stored while the provider was down once it is back', async () => {
    const provider = new HashingTestEmbeddings(32);
    const test = await createTestCore({ embeddings: provider, embeddingTimeoutMs: 300 });
    try {
      provider.failing = true;
      const stored = await test.core.storeMemory({
        user_id: 'bg',
        content: 'Backfill me later please',
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      assert.equal(stored.embedding_status, 'pending');
      provider.failing = false;
      test.core.startEmbeddingBackfill(20);
      let memory = (await test.core.getMemories('bg', [stored.memory_id]))[0];
      // Wait for the backfill to store the vector; the 30 s bound (not 2 s) only keeps a broken
      // backfill from hanging the run, so a busy machine cannot fail the test.
      const deadline = Date.now() + 30_000;
      while (memory.embedding_model === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        memory = (await test.core.getMemories('bg', [stored.memory_id]))[0];
      }
      assert.equal(memory.embedding_model, provider.model);
    } finally {
      await test.cleanup();
    }
  });
});
