import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REQUEST_TARGET_LIMIT, startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';
import { post } from './httpHelpers.ts';

/** Each strictness here is something real Firebolt (or the gateway in front of it) does and SQLite would let pass. */
describe('Firebolt test server: as strict as Firebolt', () => {
  let server: FireboltTestServer;
  const db = { database: 'strict' };
  const vectorSettings = {
    advanced_mode: '1',
    enable_vector_search_index_creation: '1',
    enable_vector_search_tvf: '1',
  };

  before(async () => {
    server = await startFireboltTestServer();
    assert.equal((await post(server.url, 'CREATE DATABASE IF NOT EXISTS "strict"')).status, 200);
    const ddl = await post(
      server.url,
      'CREATE TABLE items (user_id TEXT NOT NULL, id TEXT NOT NULL, note TEXT NULL, score DOUBLE PRECISION NOT NULL, tags ARRAY(TEXT NOT NULL) NOT NULL) PRIMARY INDEX user_id, id',
      db,
    );
    assert.equal(ddl.status, 200, ddl.text);
  });
  after(() => server.close());

  test('a request target longer than the gateway limit is refused with 414', async () => {
    const long = 'é'.repeat(REQUEST_TARGET_LIMIT / 4);
    const response = await post(server.url, 'SELECT $1 AS x', db, [long]);
    assert.equal(response.status, 414);
    assert.match(response.json().errors[0].description, /exceeds 8192/u);
    assert.equal((await post(server.url, 'SELECT $1 AS x', db, ['short'])).status, 200);
  });

  test('Core: HNSW index creation and VECTOR_SEARCH need the vector settings; VECTOR_SEARCH fails on an empty table with 500', async () => {
    assert.equal(
      (
        await post(
          server.url,
          'CREATE TABLE vecs (id TEXT NOT NULL, e ARRAY(REAL NOT NULL) NOT NULL) PRIMARY INDEX id',
          db,
        )
      ).status,
      200,
    );
    const index = 'CREATE INDEX vecs_hnsw ON vecs USING HNSW (e vector_cosine_ops) WITH (dimension = 2)';
    const refused = await post(server.url, index, db);
    assert.equal(refused.status, 400);
    assert.match(refused.json().errors[0].description, /enable_vector_search_index_creation=1/u);
    assert.equal((await post(server.url, index, { ...db, ...vectorSettings })).status, 200);
    const search =
      'SELECT id FROM VECTOR_SEARCH(INDEX vecs_hnsw, target_vector => [1, 0]::ARRAY(DOUBLE), top_k => 1) AS v';
    const gated = await post(server.url, search, { ...db, advanced_mode: '1' });
    assert.equal(gated.status, 400);
    assert.match(gated.json().errors[0].description, /enable_vector_search_tvf=1/u);
    const empty = await post(server.url, search, { ...db, ...vectorSettings });
    assert.equal(empty.status, 500, empty.text);
    assert.match(empty.json().errors[0].description, /empty/u);
    assert.equal((await post(server.url, "INSERT INTO vecs (id, e) VALUES ('a', [1, 0])", db)).status, 200);
    assert.deepEqual((await post(server.url, search, { ...db, ...vectorSettings })).json().data, [['a']]);
  });

  test('HNSW index creation on a table with rows is refused', async () => {
    assert.equal(
      (
        await post(
          server.url,
          'CREATE TABLE full_vecs (id TEXT NOT NULL, e ARRAY(REAL NOT NULL) NOT NULL) PRIMARY INDEX id',
          db,
        )
      ).status,
      200,
    );
    assert.equal((await post(server.url, "INSERT INTO full_vecs (id, e) VALUES ('a', [1, 0])", db)).status, 200);
    const response = await post(
      server.url,
      'CREATE INDEX full_hnsw ON full_vecs USING HNSW (e vector_cosine_ops) WITH (dimension = 2)',
      { ...db, ...vectorSettings },
    );
    assert.ok(response.status >= 400, response.text);
    assert.match(response.json().errors[0].description, /empty table/u);
  });

  test('MERGE refuses a source that matches one target row twice, and changes nothing', async () => {
    assert.equal(
      (
        await post(
          server.url,
          "INSERT INTO items (user_id, id, note, score, tags) VALUES ('u', 'dup', 'before', 0.5, [])",
          db,
        )
      ).status,
      200,
    );
    const merge = `MERGE INTO items AS t USING (SELECT $1 AS user_id, $2 AS id, $3 AS note UNION ALL SELECT $4 AS user_id, $5 AS id, $6 AS note) AS s
      ON t.user_id = s.user_id AND t.id = s.id
      WHEN MATCHED THEN UPDATE SET note = s.note
      WHEN NOT MATCHED THEN INSERT (user_id, id, note, score, tags) VALUES (s.user_id, s.id, s.note, 0.0, [])`;
    const response = await post(server.url, merge, db, ['u', 'dup', 'first', 'u', 'dup', 'second']);
    assert.equal(response.status, 400, response.text);
    assert.match(response.json().errors[0].description, /more than once/u);
    assert.deepEqual((await post(server.url, "SELECT note FROM items WHERE id = 'dup'", db)).json().data, [['before']]);
  });

  test('a failed statement aborts the transaction until ROLLBACK', async () => {
    const begin = await post(server.url, 'BEGIN TRANSACTION', db);
    const transactionId = /transaction_id=([^,]+)/u.exec(begin.headers.get('firebolt-update-parameters') ?? '')?.[1];
    assert.ok(transactionId);
    const inTx = { ...db, transaction_id: transactionId };
    assert.equal((await post(server.url, 'SELECT missing FROM items', inTx)).status, 400);
    const next = await post(server.url, 'SELECT 1', inTx);
    assert.equal(next.status, 400);
    assert.match(next.json().errors[0].description, /current transaction is aborted/u);
    assert.equal((await post(server.url, 'COMMIT', inTx)).status, 400, 'an aborted transaction cannot commit');
    assert.equal(server.openTransactions(), 1);
    const rollback = await post(server.url, 'ROLLBACK', inTx);
    assert.equal(rollback.status, 200);
    assert.equal(server.openTransactions(), 0);
  });

  test('a COMMIT refused for a conflict keeps the transaction open and aborted until ROLLBACK', async () => {
    const begin = await post(server.url, 'BEGIN TRANSACTION', db);
    const transactionId = /transaction_id=([^,]+)/u.exec(begin.headers.get('firebolt-update-parameters') ?? '')?.[1];
    const inTx = { ...db, transaction_id: transactionId! };
    assert.equal(
      (await post(server.url, "INSERT INTO items (user_id, id, score, tags) VALUES ('u', 'c1', 1.0, [])", inTx)).status,
      200,
    );
    server.failNextCommits([409]);
    const commit = await post(server.url, 'COMMIT', inTx);
    assert.equal(commit.status, 409);
    assert.match(commit.json().errors[0].description, /detected 1 conflicts/u);
    assert.equal(commit.headers.get('firebolt-remove-parameters'), null);
    assert.equal(server.openTransactions(), 1);
    assert.match((await post(server.url, 'SELECT 1', inTx)).json().errors[0].description, /aborted/u);
    assert.equal((await post(server.url, 'ROLLBACK', inTx)).status, 200);
    assert.equal(server.openTransactions(), 0);
    assert.deepEqual((await post(server.url, "SELECT COUNT(*) AS c FROM items WHERE id = 'c1'", db)).json().data, [
      [0],
    ]);
  });

  test('ORDER BY a name that is both an output alias and a column of a joined table is ambiguous', async () => {
    const query = (orderBy: string) =>
      post(
        server.url,
        `SELECT o.id AS id, o.score AS s FROM items o JOIN items i ON i.user_id = o.user_id ORDER BY s DESC, ${orderBy} LIMIT 5`,
        db,
      );
    const ambiguous = await query('id');
    assert.equal(ambiguous.status, 400);
    assert.match(ambiguous.json().errors[0].description, /ORDER BY id is ambiguous/u);
    assert.equal((await query('o.id')).status, 200);
    assert.equal(
      (await post(server.url, 'SELECT id AS id FROM items ORDER BY id', db)).status,
      200,
      'no join, nothing ambiguous',
    );
  });

  test('parameters are typed from their JSON: empty arrays, NULL-only MERGE columns and BIGINT vs DOUBLE rows need casts', async () => {
    const insert = "INSERT INTO items (user_id, id, score, tags) VALUES ('u', $1, 1.0, $2)";
    const emptyArray = await post(server.url, insert, db, ['e1', []]);
    assert.equal(emptyArray.status, 400);
    assert.match(emptyArray.json().errors[0].description, /empty array/u);
    assert.equal((await post(server.url, insert.replace('$2)', '$2::ARRAY(TEXT))'), db, ['e1', []])).status, 200);

    const mergeOf = (
      columns: string[],
    ) => `MERGE INTO items AS t USING (${columns.join(' UNION ALL ')}) AS s ON t.user_id = s.user_id AND t.id = s.id
      WHEN MATCHED THEN UPDATE SET note = s.note, score = s.score
      WHEN NOT MATCHED THEN INSERT (user_id, id, note, score, tags) VALUES (s.user_id, s.id, s.note, s.score, ['x'])`;
    const nullOnly = await post(server.url, mergeOf(['SELECT $1 AS user_id, $2 AS id, $3 AS note, $4 AS score']), db, [
      'u',
      'n1',
      null,
      0.5,
    ]);
    assert.equal(nullOnly.status, 400);
    assert.match(nullOnly.json().errors[0].description, /NULL in every row/u);
    const cast = await post(
      server.url,
      mergeOf(['SELECT $1::TEXT AS user_id, $2::TEXT AS id, $3::TEXT AS note, $4::DOUBLE PRECISION AS score']),
      db,
      ['u', 'n1', null, 0.5],
    );
    assert.equal(cast.status, 200, cast.text);

    const rows = [
      'SELECT $1 AS user_id, $2 AS id, $3 AS note, $4 AS score',
      'SELECT $5 AS user_id, $6 AS id, $7 AS note, $8 AS score',
    ];
    const mixed = await post(server.url, mergeOf(rows), db, ['u', 'm1', 'a', 1, 'u', 'm2', 'b', 0.5]);
    assert.equal(mixed.status, 400);
    assert.match(mixed.json().errors[0].description, /BIGINT vs DOUBLE PRECISION/u);
  });
});

describe('Firebolt test server: Cloud engines need no vector settings', () => {
  test('HNSW index creation works without Core settings on a Cloud engine', async () => {
    const account = { clientId: 'id', clientSecret: 'secret', account: 'acme', accountId: 'acc', engine: 'eng' };
    const server = await startFireboltTestServer({ cloud: account });
    try {
      const token = (
        (await (
          await fetch(new URL('/oauth/token', server.url), {
            method: 'POST',
            body: new URLSearchParams({ client_id: 'id', client_secret: 'secret', grant_type: 'client_credentials' }),
          })
        ).json()) as { access_token: string }
      ).access_token;
      const auth = { Authorization: `Bearer ${token}` };
      const path = '/engines/eng';
      assert.equal(
        (
          await post(
            server.url,
            'CREATE TABLE v (id TEXT NOT NULL, e ARRAY(REAL NOT NULL) NOT NULL)',
            { database: 'firebolt' },
            undefined,
            path,
            auth,
          )
        ).status,
        200,
      );
      const index = await post(
        server.url,
        'CREATE INDEX v_hnsw ON v USING HNSW (e vector_cosine_ops) WITH (dimension = 2)',
        { database: 'firebolt' },
        undefined,
        path,
        auth,
      );
      assert.equal(index.status, 200, index.text);
    } finally {
      await server.close();
    }
  });
});
