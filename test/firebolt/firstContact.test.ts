import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import {
  MODEL,
  embedding,
  makeAccess,
  makeMemory,
  makeSession,
  makeWorkingItem,
  newUserId,
  randomUnitVector,
  seededRandom,
} from '../contract/fixtures.ts';
import { REQUEST_TARGET_LIMIT, startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer, FireboltTestServerOptions } from '../support/firebolt-server/server.ts';

/**
 * What the store must do on first contact with a real Firebolt (issue 15), each against the
 * strict test server: these failed on the client before the fix.
 */
const fastRetry = { retry: { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 } };

async function withStore(
  options: FireboltTestServerOptions,
  work: (store: FireboltStore, server: FireboltTestServer) => Promise<void>,
): Promise<void> {
  const server = await startFireboltTestServer(options);
  const store = new FireboltStore({ kind: 'core', url: server.url, database: 'first_contact' }, fastRetry);
  try {
    await store.open();
    await work(store, server);
  } finally {
    await store.close();
    await server.close();
  }
}

/** A server answering every query with `answer` and recording what it was sent: for protocol corners the test server never produces. */
async function withScriptedServer(
  answer: (sql: string, params: URLSearchParams) => ScriptedReply,
  work: (url: string, seen: { sql: string; params: URLSearchParams }[]) => Promise<void>,
): Promise<void> {
  const seen: { sql: string; params: URLSearchParams }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const sql = Buffer.concat(chunks).toString('utf8');
      const params = new URL(request.url ?? '/', 'http://x').searchParams;
      seen.push({ sql, params });
      const reply = answer(sql, params);
      response.writeHead(reply.status, reply.headers ?? {});
      response.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await work(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const errorBody = (description: string): string => JSON.stringify({ errors: [{ description }] });

interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

describe('Fix 1: Cloud connects when Firebolt-Update-Endpoint has no scheme', () => {
  test('USE ENGINE answered with a bare host moves queries to that engine', async () => {
    const account = { clientId: 'svc', clientSecret: 'secret', account: 'acme', accountId: 'acc-1', engine: 'eng' };
    const server = await startFireboltTestServer({ cloud: account });
    const client = new FireboltQueryClient(
      {
        kind: 'cloud',
        clientId: 'svc',
        clientSecret: 'secret',
        account: 'acme',
        database: 'cloud_db',
        engine: 'eng',
        apiEndpoint: server.url,
      },
      fastRetry,
    );
    try {
      assert.deepEqual((await client.query('SELECT 3 AS three')).rows, [{ three: 3 }]);
      const last = server.requests.at(-1)!;
      assert.equal(last.path, '/engines/eng');
      assert.equal(last.params.engine, 'eng');
      assert.equal(last.params.account_id, 'acc-1');
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe('Fix 2: every request target stays under the gateway limit', () => {
  test('large non-ASCII content, metadata, working-memory batches and access logs are stored intact', async () => {
    await withStore({}, async (store, server) => {
      const user = newUserId();
      const content = 'Ünïcödé ✓ 記憶 '.repeat(900);
      const memory = makeMemory(user, { content, summary: '要約'.repeat(500), metadata: { note: 'ß'.repeat(3000) } });
      await store.insertMemory(memory, null);
      const [stored] = await store.getMemories(user, [memory.memory_id]);
      assert.equal(stored.content, content);
      assert.deepEqual(stored.metadata, memory.metadata);
      assert.equal(stored.summary, memory.summary);

      const session = makeSession(user);
      const items = Array.from({ length: 40 }, (_, i) =>
        makeWorkingItem(session, i, { content: `項目 ${i} ${'é'.repeat(400)}` }),
      );
      await store.commitWorking({ session, upsert: items, delete: [] });
      const listed = await store.listWorkingItems(session.session_id);
      assert.deepEqual(
        listed.map((item) => item.content),
        items.map((item) => item.content),
      );

      await store.recordAccess([makeAccess(memory, { query_text: '質問'.repeat(2000) })]);
      assert.equal((await store.listAccessLog(user, 0, 10))[0].query_text, '質問'.repeat(2000));

      const longest = Math.max(...server.requests.map((request) => Buffer.byteLength(request.target)));
      assert.ok(longest <= REQUEST_TARGET_LIMIT, `longest request target ${longest} bytes`);
    });
  });
});

describe('Fix 3: vector search degrades instead of failing', () => {
  const random = seededRandom(11);
  const query = randomUnitVector(6, random);

  test('on Core the HNSW index is created and VECTOR_SEARCH used (the Core vector settings are sent)', async () => {
    await withStore({}, async (store, server) => {
      const user = newUserId();
      await store.insertMemory(makeMemory(user, { embedding_model: MODEL }), embedding(query));
      const hits = await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 1 });
      assert.equal(hits[0]?.method, 'hnsw:fml_vectors_d6_hnsw');
      const search = server.requests.find((request) => request.body.includes('VECTOR_SEARCH('))!;
      assert.equal(search.params.enable_vector_search_tvf, '1');
      assert.equal(search.params.advanced_mode, '1');
    });
  });

  test('a 5xx on CREATE INDEX leaves the dimension on exact search and the insert succeeds', async () => {
    await withStore({}, async (store, server) => {
      server.failNextQueries([500, 500, 500, 500], /CREATE INDEX/u);
      const user = newUserId();
      const memory = makeMemory(user, { embedding_model: MODEL });
      await store.insertMemory(memory, embedding(query));
      const hits = await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 1 });
      assert.deepEqual(
        hits.map((hit) => [hit.memory_id, hit.method]),
        [[memory.memory_id, 'exact']],
      );
      assert.match((await store.health()).detail, /exact vector search for dimension 6/u);
    });
  });

  test('VECTOR_SEARCH failing on an empty table answers exactly, and the index is used again once rows exist', async () => {
    await withStore({}, async (store) => {
      const user = newUserId();
      const first = makeMemory(user, { embedding_model: MODEL });
      await store.insertMemory(first, embedding(query));
      await store.hardDeleteMemory(user, first.memory_id);
      assert.deepEqual(
        await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 3 }),
        [],
      );
      const second = makeMemory(user, { embedding_model: MODEL });
      await store.insertMemory(second, embedding(query));
      const hits = await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 1 });
      assert.deepEqual(
        hits.map((hit) => [hit.memory_id, hit.method]),
        [[second.memory_id, 'hnsw:fml_vectors_d6_hnsw']],
      );
    });
  });

  test('a transport failure of VECTOR_SEARCH still fails the search', async () => {
    await withStore({}, async (store, server) => {
      const user = newUserId();
      await store.insertMemory(makeMemory(user, { embedding_model: MODEL }), embedding(query));
      await server.pause();
      try {
        await assert.rejects(
          store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 1 }),
          (error: unknown) => {
            assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'));
            assert.equal(error.details?.status, 0);
            return true;
          },
        );
      } finally {
        await server.resume();
      }
      const hits = await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 1 });
      assert.equal(hits[0]?.method, 'hnsw:fml_vectors_d6_hnsw');
    });
  });
});

describe('Fix 4: transactions as Firebolt runs them', () => {
  test('a COMMIT refused for a conflict is rolled back with its transaction id, then the transaction is replayed', async () => {
    const server = await startFireboltTestServer();
    const client = new FireboltQueryClient({ kind: 'core', url: server.url, database: 'tx' }, fastRetry);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS t (id TEXT NOT NULL) PRIMARY INDEX id');
      server.failNextCommits([409]);
      const before = server.requests.length;
      await client.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1::TEXT)', ['a']);
      });
      const traffic = server.requests.slice(before);
      assert.deepEqual(
        traffic.map((request) => request.body.split(' ')[0]),
        ['BEGIN', 'INSERT', 'COMMIT', 'ROLLBACK', 'BEGIN', 'INSERT', 'COMMIT'],
      );
      assert.equal(
        traffic[3].params.transaction_id,
        traffic[2].params.transaction_id,
        'ROLLBACK names the transaction whose COMMIT failed',
      );
      assert.equal(server.openTransactions(), 0, 'no aborted transaction is left holding the engine');
      assert.deepEqual((await client.query('SELECT id FROM t')).rows, [{ id: 'a' }]);
    } finally {
      client.close();
      await server.close();
    }
  });

  test('BEGIN answered without a transaction id fails loudly and nothing runs outside a transaction', async () => {
    await withScriptedServer(
      () => ({ status: 200 }),
      async (url, seen) => {
        const client = new FireboltQueryClient({ kind: 'core', url, database: 'db' }, fastRetry);
        try {
          await assert.rejects(
            client.transaction(async (tx) => {
              await tx.query('INSERT INTO t (id) VALUES ($1::TEXT)', ['a']);
            }),
            (error: unknown) => MemoryError.is(error, 'PROVIDER_ERROR') && /transaction id/u.test(error.message),
          );
          assert.ok(
            !seen.some((request) => request.sql.startsWith('INSERT')),
            'the INSERT would have auto-committed on its own',
          );
        } finally {
          client.close();
        }
      },
    );
  });

  test('Firebolt-Remove-Parameters on an error response is applied: the ended transaction is not named again', async () => {
    await withScriptedServer(
      (sql): ScriptedReply => {
        if (sql.startsWith('BEGIN'))
          return {
            status: 200,
            headers: { 'Firebolt-Update-Parameters': 'transaction_id=tx1,transaction_sequence_id=0' },
          };
        if (sql.startsWith('INSERT')) {
          return {
            status: 500,
            headers: {
              'Firebolt-Remove-Parameters': 'transaction_id,transaction_sequence_id',
              'Content-Type': 'application/json',
            },
            body: errorBody('engine restarted'),
          };
        }
        return { status: 200 };
      },
      async (url, seen) => {
        const client = new FireboltQueryClient(
          { kind: 'core', url, database: 'db' },
          { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } },
        );
        try {
          await assert.rejects(
            client.transaction(async (tx) => void (await tx.query('INSERT INTO t (id) VALUES ($1::TEXT)', ['a']))),
          );
          await client.query('SELECT 1 AS one');
          const after = seen.slice(seen.findIndex((request) => request.sql.startsWith('INSERT')) + 1);
          assert.ok(after.length > 0);
          for (const request of after) assert.equal(request.params.get('transaction_id'), null, request.sql);
        } finally {
          client.close();
        }
      },
    );
  });
});

describe('Fix 5: type-explicit, unambiguous SQL', () => {
  test('working memory with NULL columns, mixed integer and fractional scores and a duplicated item is stored, last write winning', async () => {
    await withStore({}, async (store) => {
      const user = newUserId();
      const session = makeSession(user, { org_id: null, expires_at: null });
      const items = [
        makeWorkingItem(session, 0, { relevance_score: 1 }),
        makeWorkingItem(session, 1, { relevance_score: 0.25, metadata: {} }),
      ];
      await store.commitWorking({ session, upsert: items, delete: [] });
      const revised = { ...items[0], content: 'revised', relevance_score: 0.5 };
      await store.commitWorking({ session, upsert: [{ ...items[0], content: 'stale' }, revised], delete: [] });
      const listed = await store.listWorkingItems(session.session_id);
      assert.deepEqual(
        listed.map((item) => [item.item_id, item.content, item.relevance_score]),
        [
          [items[0].item_id, 'revised', 0.5],
          [items[1].item_id, items[1].content, 0.25],
        ],
      );
      assert.equal((await store.getSession(session.session_id))?.org_id, null);
    });
  });
});
