import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { LexicalIndex } from '../../src/stores/common/lexicalIndex.ts';
import { analyzeDocument, analyzeQuery } from '../../src/core/text/analyzer.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { MIGRATIONS, SCHEMA_VERSION_TABLE } from '../../src/stores/firebolt/schema.ts';
import {
  MODEL,
  embedding,
  iso,
  makeAccess,
  makeMemory,
  newUserId,
  randomUnitVector,
  seededRandom,
  vectorNear,
} from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServerOptions } from '../support/firebolt-server/server.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

const fastRetry = { retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 40 } };

async function withStore(
  options: FireboltTestServerOptions,
  work: (store: FireboltStore, server: Awaited<ReturnType<typeof startFireboltTestServer>>) => Promise<void>,
): Promise<void> {
  const server = await startFireboltTestServer(options);
  const store = new FireboltStore({ kind: 'core', url: server.url, database: 'store_tests' }, fastRetry);
  try {
    await store.open();
    await work(store, server);
  } finally {
    await store.close();
    await server.close();
  }
}

describe('FireboltStore specifics', () => {
  test("recordAccess bumps a recall's memories in one UPDATE, not one per memory", async () => {
    await withStore({}, async (store, server) => {
      const user = newUserId();
      const memories = Array.from({ length: 10 }, (_, i) => makeMemory(user, { content: `memory ${i}` }));
      for (const memory of memories) await store.insertMemory(memory, null);
      const before = server.requests.length;
      await store.recordAccess([...memories, memories[0]].map((memory) => makeAccess(memory, { accessed_at: iso(5) })));
      const updates = server.requests.slice(before).filter((request) => request.body.trimStart().startsWith('UPDATE'));
      assert.equal(updates.length, 2, 'one UPDATE for the nine memories read once, one for the memory read twice');
      const after = await store.getMemories(
        user,
        memories.map((memory) => memory.memory_id),
      );
      assert.deepEqual(after.map((memory) => memory.access_count).sort(), [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    });
  });

  test('searchVector reports the HNSW index when VECTOR_SEARCH answers, exact otherwise', async () => {
    for (const vectorSearch of [true, false]) {
      await withStore({ vectorSearch }, async (store) => {
        const user = newUserId();
        const random = seededRandom(3);
        const query = randomUnitVector(8, random);
        for (let i = 0; i < 4; i++) {
          await store.insertMemory(
            makeMemory(user, { embedding_model: MODEL }),
            embedding(vectorNear(query, 0.9 - i * 0.2, random)),
          );
        }
        const hits = await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 2 });
        assert.equal(hits.length, 2);
        assert.deepEqual(
          new Set(hits.map((hit) => hit.method)),
          new Set([vectorSearch ? 'hnsw:fml_vectors_d8_hnsw' : 'exact']),
        );
        assert.match(
          (await store.health()).detail,
          vectorSearch ? /HNSW vector search/u : /exact vector search for dimension 8/u,
        );
      });
    }
  });

  test('an HNSW result thinned by post-filtering falls back to the exact scan', async () => {
    await withStore({}, async (store) => {
      const crowd = newUserId();
      const me = newUserId();
      const random = seededRandom(4);
      const query = randomUnitVector(4, random);
      for (let i = 0; i < 70; i++)
        await store.insertMemory(
          makeMemory(crowd, { embedding_model: MODEL }),
          embedding(vectorNear(query, 0.99, random)),
        );
      const mine = makeMemory(me, { embedding_model: MODEL });
      await store.insertMemory(mine, embedding(vectorNear(query, 0.1, random)));
      const hits = await store.searchVector({ filter: { user_id: me }, vector: query, model: MODEL, limit: 1 });
      assert.deepEqual(
        hits.map((hit) => [hit.memory_id, hit.method]),
        [[mine.memory_id, 'exact']],
      );
    });
  });

  test('BM25 computed in SQL equals the in-memory LexicalIndex', async () => {
    await withStore({}, async (store) => {
      const user = newUserId();
      const texts = [
        'Deploy the billing service with the blue-green pipeline.',
        'The billing database migrations run before every deploy.',
        'getUserById returns null when the user was soft deleted.',
        'Pipeline caches speed up the nightly build; deploy happens after tests.',
        'Billing billing billing: invoices are generated nightly.',
      ];
      const memories = texts.map((content, i) =>
        makeMemory(user, {
          content,
          tags: i % 2 ? ['billing'] : [],
          entities: i === 2 ? ['function:getUserById'] : [],
          created_at: iso(i),
        }),
      );
      for (const memory of memories) await store.insertMemory(memory, null);
      await rewriteMemory(store, { ...memories[4], deleted_at: iso(9) });
      const index = new LexicalIndex();
      for (const memory of memories.slice(0, 4)) index.upsert(memory.memory_id, analyzeDocument(memory));
      for (const text of ['billing deploy pipeline', 'user id', 'nightly invoices']) {
        const terms = analyzeQuery(text);
        const expected = index.search(terms, 10);
        const actual = await store.searchLexical({ filter: { user_id: user }, terms, limit: 10 });
        assert.deepEqual(actual.map((hit) => hit.memory_id).sort(), expected.map((hit) => hit.memory_id).sort(), text);
        for (const hit of actual) {
          const twin = expected.find((candidate) => candidate.memory_id === hit.memory_id)!;
          assert.ok(
            Math.abs(hit.score - twin.score) < 1e-9 * Math.max(1, twin.score),
            `${text}: ${hit.score} vs ${twin.score}`,
          );
          assert.deepEqual(hit.matched_terms, twin.matched_terms);
        }
      }
    });
  });

  test('migrations are idempotent and recorded once', async () => {
    await withStore({}, async (_store, server) => {
      const again = new FireboltStore({ kind: 'core', url: server.url, database: 'store_tests' });
      await again.open();
      await again.close();
      const client = new FireboltQueryClient({ kind: 'core', url: server.url, database: 'store_tests' });
      const { rows } = await client.query(
        'SELECT version, COUNT(*) AS n FROM fml_schema_version GROUP BY version ORDER BY version',
      );
      client.close();
      assert.deepEqual(rows, [
        { version: 1, n: 1 },
        { version: 2, n: 1 },
        { version: 3, n: 1 },
        { version: 4, n: 1 },
      ]);
    });
  });

  test('upgrades a database from before memory layers: existing memories become the user layer of their user', async () => {
    const server = await startFireboltTestServer({});
    const config = { kind: 'core' as const, url: server.url, database: 'layer_upgrade' };
    try {
      // Schema version 1 exactly as the first release created it, with one memory in it.
      const client = new FireboltQueryClient(config);
      await client.connect();
      await client.query(SCHEMA_VERSION_TABLE, [], { write: true });
      for (const statement of MIGRATIONS[0].statements) await client.query(statement, [], { write: true });
      await client.query(
        'INSERT INTO fml_schema_version (version, description, applied_at) VALUES (1, $1, CURRENT_TIMESTAMP)',
        [MIGRATIONS[0].description],
        { write: true },
      );
      const user = newUserId();
      await client.query(
        `INSERT INTO fml_memories (user_id, memory_id, memory_category, memory_subtype, content, entities, tags, metadata, is_temporal, importance, access_count,
           decay_factor, related_memories, source_type, confidence, pinned, created_at, last_accessed, updated_at, doc_length, analyzer_version, stored_seq)
         VALUES ($1, 'mem_old', 'semantic', 'project', 'Written before layers existed.', $2::ARRAY(TEXT), $2::ARRAY(TEXT), '{}', FALSE, 0.5, 0,
           1, $2::ARRAY(TEXT), 'explicit', 1, FALSE, $3::TIMESTAMPTZ, $3::TIMESTAMPTZ, $3::TIMESTAMPTZ, 4, 1, 1)`,
        [user, [], iso(1)],
        { write: true },
      );
      client.close();
      const store = new FireboltStore(config, fastRetry);
      await store.open();
      const [memory] = await store.getMemories(user, ['mem_old']);
      await store.close();
      assert.equal(memory.layer, 'user');
      assert.equal(memory.scope_id, user);
      assert.equal(memory.content, 'Written before layers existed.');
    } finally {
      await server.close();
    }
  });

  test('429 and 503 answers are retried and the write lands exactly once', async () => {
    await withStore({}, async (store, server) => {
      const user = newUserId();
      const memory = makeMemory(user);
      server.failNextQueries([429, 503]);
      await store.insertMemory(memory, null);
      assert.equal((await store.stats(user)).memories, 1);
      assert.deepEqual(
        (await store.getMemories(user, [memory.memory_id])).map((m) => m.memory_id),
        [memory.memory_id],
      );
    });
  });

  test('an outage fails operations with PROVIDER_ERROR and marks health unhealthy until the server is back', async () => {
    await withStore({}, async (store, server) => {
      const user = newUserId();
      await server.pause();
      await assert.rejects(
        store.insertMemory(makeMemory(user), null),
        (error: unknown) => MemoryError.is(error, 'PROVIDER_ERROR') && error.retryable,
      );
      assert.equal((await store.health()).status, 'unhealthy');
      await server.resume();
      assert.equal((await store.health()).status, 'healthy');
      await store.insertMemory(makeMemory(user), null);
      assert.equal((await store.stats(user)).memories, 1);
    });
  });

  test('data survives a server restart on the same data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fml-firebolt-'));
    try {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'persisted across restarts', embedding_model: MODEL });
      await withStore({ dataDir }, (store) =>
        store.insertMemory(memory, embedding(randomUnitVector(4, seededRandom(8)))),
      );
      await withStore({ dataDir }, async (store) => {
        assert.deepEqual(await store.getMemories(user, [memory.memory_id]), [memory]);
        const hits = await store.searchLexical({
          filter: { user_id: user },
          terms: analyzeQuery('persisted'),
          limit: 3,
        });
        assert.deepEqual(
          hits.map((hit) => hit.memory_id),
          [memory.memory_id],
        );
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
