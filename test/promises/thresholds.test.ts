import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import type { EmbeddingProvider } from '../../src/core/ports/embeddingProvider.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { RateLimiter, rateLimitOf } from '../../src/http/rateLimiter.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Documented thresholds with a fixture on each side of the edge, close to it: a rounding or
 * off-by-a-little bug at the edge fails here (tests far from the edge let it pass). The content,
 * query and field limits of src/core/limits.ts are tested one past each limit by
 * test/mcp/schemaLimits.test.ts; the anchor's 0.8 by test/promises/anchorLocator.test.ts.
 */

/** Vectors chosen per text: the cosine of two memories is exactly what the test says it is. */
class ChosenVectors implements EmbeddingProvider {
  readonly kind = 'chosen vectors (test)';
  readonly model = 'chosen-8';
  readonly dimensions = 8;
  private readonly chosen = new Map<string, Float32Array>();
  private spare = 2;

  /** `text` gets a unit vector at cosine `similarity` to `base` (unit vector e0), in a dimension of its own. */
  at(text: string, similarity: number): void {
    const vector = new Float32Array(this.dimensions);
    vector[0] = similarity;
    vector[this.spare++] = Math.sqrt(1 - similarity * similarity);
    this.chosen.set(text, vector);
  }
  base(text: string): void {
    const vector = new Float32Array(this.dimensions);
    vector[0] = 1;
    this.chosen.set(text, vector);
  }
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map(
      (text) => this.chosen.get(text) ?? Float32Array.from({ length: this.dimensions }, (_, i) => (i === 1 ? 1 : 0)),
    );
  }
}

interface Stored {
  memory_id: string;
  similar_existing?: { memory_id: string; similarity: number; action: string };
}

describe('near-duplicate detection at its edges: 0.95 updates, just below is a new memory; 0.8 is reported, just below is not', () => {
  // Each case stores a base memory, then one whose vector is at `similarity` to it. The texts share
  // one rare word (so full-text finds the candidate) and little else (so text similarity stays low).
  for (const [similarity, expected] of [
    [0.9991, 'skipped_duplicate'],
    [0.9989, 'updated_existing'],
    [0.9501, 'updated_existing'],
    [0.9499, 'created_new'],
    [0.8001, 'created_new'],
    [0.7999, 'none'],
  ] as const) {
    it(`a memory at cosine ${similarity} to an existing one is ${expected === 'none' ? 'stored without a similar_existing' : expected}`, async () => {
      const vectors = new ChosenVectors();
      const test = await createTestCore({ embeddings: vectors });
      try {
        const base = 'Zebracorn deploys run nightly from the staging cluster';
        const next = 'Zebracorn alerts page whoever is on call by phone';
        vectors.base(base);
        vectors.at(next, similarity);
        const first = (await test.core.storeMemory({
          user_id: 'u',
          content: base,
          memory_category: 'semantic',
          memory_subtype: 'project',
        })) as Stored;
        const second = (await test.core.storeMemory({
          user_id: 'u',
          content: next,
          memory_category: 'semantic',
          memory_subtype: 'project',
        })) as Stored;
        const stored = (await listAllMemories(test.store, { user_id: 'u' })).items.filter(
          (memory) => !memory.deleted_at,
        );
        if (expected === 'none') {
          assert.equal(second.similar_existing, undefined, JSON.stringify(second));
          assert.equal(stored.length, 2);
          return;
        }
        assert.equal(second.similar_existing?.action, expected, JSON.stringify(second));
        assert.equal(second.similar_existing?.memory_id, first.memory_id);
        assert.equal(stored.length, expected === 'created_new' ? 2 : 1, `${stored.length} memories stored`);
        if (expected === 'updated_existing') assert.equal(stored[0]!.content, next, 'the update keeps the new text');
        if (expected === 'skipped_duplicate') assert.equal(stored[0]!.content, base, 'a duplicate keeps the old text');
      } finally {
        await test.cleanup();
      }
    });
  }
});

function post(port: number, body: string, chunked: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${TOKEN}`,
          ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    if (chunked) {
      // Several chunks, so the limit is counted across them.
      for (let at = 0; at < body.length; at += 1000) req.write(body.slice(at, at + 1000));
      req.end();
    } else req.end(body);
  });
}

const TOKEN = 'thresholds-token-0123456789abcdef0123456789';
const LIMIT = 4096;

describe('HTTP body limit and rate limit at their edges', () => {
  let test: TestCore;
  let server: RunningHttpServer;
  before(async () => {
    test = await createTestCore();
    server = await startHttpServer({ core: test.core }, { port: 0, token: TOKEN, maxBodyBytes: LIMIT });
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  /** An initialize request padded with spaces to exactly `bytes` bytes. */
  const bodyOf = (bytes: number): string => {
    const json = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'edge', version: '1' } },
    });
    return json + ' '.repeat(bytes - Buffer.byteLength(json));
  };

  it('a body of exactly the limit is read, one byte more is 413', async () => {
    for (const chunked of [false, true]) {
      assert.equal(
        await post(server.port, bodyOf(LIMIT), chunked),
        200,
        `exactly ${LIMIT} bytes (chunked: ${chunked})`,
      );
      assert.equal(
        await post(server.port, bodyOf(LIMIT + 1), chunked),
        413,
        `${LIMIT + 1} bytes (chunked: ${chunked})`,
      );
    }
  });

  it('the burst is a tenth of N at its rounding edges, at least 1 and never more than N', () => {
    for (const [perMinute, burst] of [
      [1, 1],
      [9, 1],
      [10, 1],
      [11, 2],
      [20, 2],
      [21, 3],
      [6000, 600],
      [6001, 601],
    ] as const) {
      assert.deepEqual(rateLimitOf(perMinute), { perMinute, burst }, `--rate-limit ${perMinute}`);
      const limiter = new RateLimiter(perMinute, burst);
      const atOnce = Array.from({ length: burst + 1 }, () => limiter.take('client', 5_000));
      assert.deepEqual(
        atOnce.map((wait) => wait === 0),
        [...Array.from({ length: burst }, () => true), false],
        `${burst} at once pass and one more waits at --rate-limit ${perMinute}`,
      );
    }
  });

  it('the 60-second window: the (N+1)-th request is refused until 60 s after the first, and served at 60 s', () => {
    const perMinute = 3;
    const limiter = new RateLimiter(perMinute, perMinute);
    for (const at of [0, 1_000, 2_000]) assert.equal(limiter.take('client', at), 0, `request at ${at} ms`);
    assert.ok(limiter.take('client', 59_999) > 0, 'a fourth request 59.999 s after the first waits');
    assert.equal(limiter.take('client', 60_000), 0, 'a fourth request 60 s after the first is served');
  });
});
