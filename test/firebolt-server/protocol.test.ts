import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';
import { post } from './httpHelpers.ts';

describe('Firebolt test server: query protocol', () => {
  let server: FireboltTestServer;
  const db = { database: 'proto' };

  before(async () => {
    server = await startFireboltTestServer();
    assert.equal(
      (await post(server.url, 'CREATE DATABASE IF NOT EXISTS "proto"', { output_format: 'JSON_Compact' })).status,
      200,
    );
    const ddl = await post(
      server.url,
      `CREATE TABLE IF NOT EXISTS items (
         user_id TEXT NOT NULL, id TEXT NOT NULL, note TEXT NULL,
         v ARRAY(REAL NOT NULL) NOT NULL, tags ARRAY(TEXT NOT NULL) NOT NULL,
         n BIGINT NOT NULL DEFAULT 0, score DOUBLE PRECISION NULL, flag BOOLEAN NOT NULL DEFAULT FALSE,
         at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP
       ) PRIMARY INDEX user_id, id`,
      db,
    );
    assert.equal(ddl.status, 200, ddl.text);
  });
  after(() => server.close());

  test('JSON_Compact has query, meta with lower-case types and null suffixes, data, rows, statistics', async () => {
    const insert = await post(
      server.url,
      'INSERT INTO items (user_id, id, note, v, tags, n, score, flag, at) VALUES ($1, $2, $3, $4::ARRAY(REAL), $5, 9007199254740993, $6, TRUE, $7::TIMESTAMPTZ)',
      db,
      ['u1', 'a', null, [0.1, 0.2, 0.3], ['x', 'y'], 0.30000000000000004, '2024-01-02T03:04:05.678Z'],
    );
    assert.equal(insert.status, 200, insert.text);
    assert.equal(insert.text, '', 'statements without a result set answer with an empty body');
    const response = await post(
      server.url,
      'SELECT id, note, v, tags, n, score, flag, at FROM items WHERE user_id = $1',
      db,
      ['u1'],
    );
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/u);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['query', 'meta', 'data', 'rows', 'statistics']);
    assert.deepEqual(body.meta, [
      { name: 'id', type: 'text' },
      { name: 'note', type: 'text null' },
      { name: 'v', type: 'array(real)' },
      { name: 'tags', type: 'array(text)' },
      { name: 'n', type: 'long' },
      { name: 'score', type: 'double null' },
      { name: 'flag', type: 'boolean' },
      { name: 'at', type: 'timestamptz' },
    ]);
    assert.equal(body.rows, 1);
    assert.match(
      response.text,
      /"data":\[\["a",null,\[0\.1,0\.2,0\.3\],\["x","y"\],9007199254740993,0\.30000000000000004,true,"2024-01-02 03:04:05\.678\+00"\]\]/u,
    );
    assert.equal(typeof body.statistics.elapsed, 'number');
  });

  test('JSONLines_Compact streams START, DATA and FINISH_SUCCESSFULLY', async () => {
    const response = await post(server.url, 'SELECT id FROM items ORDER BY id', {
      ...db,
      output_format: 'JSONLines_Compact',
    });
    const lines = response.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines[0].message_type, 'START');
    assert.deepEqual(lines[0].result_columns, [{ name: 'id', type: 'text' }]);
    assert.equal(lines[1].message_type, 'DATA');
    assert.equal(lines.at(-1).message_type, 'FINISH_SUCCESSFULLY');
  });

  test('TabSeparatedWithNamesAndTypes is the default output format', async () => {
    const url = new URL('/', server.url);
    url.searchParams.set('database', 'proto');
    const response = await fetch(url, { method: 'POST', body: "SELECT id, note FROM items WHERE id = 'a'" });
    assert.equal(await response.text(), 'id\tnote\ntext\ttext null\na\t\\N\n');
  });

  test('errors come back as 400 with a structured errors array', async () => {
    const response = await post(server.url, 'SELECT nope FROM items', db);
    assert.equal(response.status, 400);
    const [error] = response.json().errors;
    assert.equal(error.severity, 'ERROR');
    assert.match(error.description, /nope/u);
    const unknownDb = await post(server.url, 'SELECT 1', { database: 'missing' });
    assert.equal(unknownDb.status, 400);
    assert.match(unknownDb.json().errors[0].description, /does not exist/u);
    const twoStatements = await post(server.url, 'SELECT 1; SELECT 2', db);
    assert.equal(twoStatements.status, 400);
  });

  test('values stay values: hostile parameter strings round-trip unchanged', async () => {
    const hostile = `'; DROP TABLE items; -- \\' "$1" /* x */ ?  \u{1F600} \\\\`;
    const response = await post(server.url, 'SELECT $1 AS s, $2::ARRAY(TEXT) AS a', db, [hostile, [hostile, '$2']]);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.json().data, [[hostile, [hostile, '$2']]]);
    assert.equal((await post(server.url, "SELECT E'a\\tb''c' AS s", db)).json().data[0][0], "a\tb'c");
  });

  test('USE DATABASE answers with Firebolt-Update-Parameters', async () => {
    const response = await post(server.url, 'USE DATABASE "proto"', {});
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('firebolt-update-parameters'), 'database=proto');
  });

  test('MERGE upserts in one statement', async () => {
    const merge = `MERGE INTO items AS t USING (SELECT $1 AS user_id, $2 AS id, $3 AS note) AS s
      ON t.user_id = s.user_id AND t.id = s.id
      WHEN MATCHED THEN UPDATE SET note = s.note
      WHEN NOT MATCHED THEN INSERT (user_id, id, note, v, tags) VALUES (s.user_id, s.id, s.note, [1, 0, 0], [])`;
    assert.equal((await post(server.url, merge, db, ['u2', 'm', 'first'])).status, 200);
    assert.equal((await post(server.url, merge, db, ['u2', 'm', 'second'])).status, 200);
    const rows = (await post(server.url, 'SELECT note FROM items WHERE user_id = $1', db, ['u2'])).json().data;
    assert.deepEqual(rows, [['second']]);
  });

  test('explicit transactions: parameters headers, isolation, rollback, misuse errors', async () => {
    const begin = await post(server.url, 'BEGIN TRANSACTION', db);
    const update = begin.headers.get('firebolt-update-parameters') ?? '';
    const transactionId = /transaction_id=([^,]+)/u.exec(update)?.[1];
    assert.ok(transactionId, update);
    const inTx = { ...db, transaction_id: transactionId, transaction_sequence_id: '0' };
    assert.equal(
      (await post(server.url, "INSERT INTO items (user_id, id, v, tags) VALUES ('u3', 't', [0, 1, 0], [])", inTx))
        .status,
      200,
    );
    const outside = await post(server.url, "SELECT COUNT(*) AS c FROM items WHERE user_id = 'u3'", db);
    assert.deepEqual(outside.json().data, [[0]], 'uncommitted rows are invisible outside the transaction');
    const conflict = await post(
      server.url,
      "INSERT INTO items (user_id, id, v, tags) VALUES ('u3', 'x', [0, 1, 0], [])",
      db,
    );
    assert.equal(conflict.status, 409, 'a second writer conflicts while the transaction holds the write lock');
    assert.equal((await post(server.url, 'BEGIN', inTx)).status, 400, 'nested BEGIN is an error');
    const rollback = await post(server.url, 'ROLLBACK', inTx);
    assert.equal(rollback.headers.get('firebolt-remove-parameters'), 'transaction_id,transaction_sequence_id');
    assert.deepEqual((await post(server.url, "SELECT COUNT(*) AS c FROM items WHERE user_id = 'u3'", db)).json().data, [
      [0],
    ]);
    assert.equal((await post(server.url, 'COMMIT', db)).status, 400, 'COMMIT outside a transaction is an error');
  });

  test('HNSW index: dimension enforced; VECTOR_SEARCH returns top_k before outer filters', async () => {
    const setup = [
      'CREATE TABLE vecs (user_id TEXT NOT NULL, id TEXT NOT NULL, e ARRAY(REAL NOT NULL) NOT NULL) PRIMARY INDEX user_id, id',
      'CREATE INDEX vecs_hnsw ON vecs USING HNSW (e vector_cosine_ops) WITH (dimension = 2, m = 16, ef_construction = 128)',
      "INSERT INTO vecs (user_id, id, e) VALUES ('other', 'o1', [1, 0]), ('other', 'o2', [0.99, 0.01]), ('me', 'm1', [0.9, 0.1]), ('me', 'm2', [0, 1])",
    ];
    const vectorDb = {
      ...db,
      advanced_mode: '1',
      enable_vector_search_index_creation: '1',
      enable_vector_search_tvf: '1',
    };
    for (const sql of setup) assert.equal((await post(server.url, sql, vectorDb)).status, 200, sql);
    const wrongDimension = await post(
      server.url,
      "INSERT INTO vecs (user_id, id, e) VALUES ('me', 'bad', [1, 0, 0])",
      db,
    );
    assert.equal(wrongDimension.status, 400);
    const search = (topK: number) =>
      post(
        server.url,
        `SELECT v.id FROM VECTOR_SEARCH(INDEX vecs_hnsw, target_vector => [1, 0]::ARRAY(DOUBLE), top_k => ${topK}, ef_search => 64) AS v WHERE v.user_id = 'me'`,
        vectorDb,
      );
    assert.deepEqual((await search(2)).json().data, [], 'the two nearest rows belong to another user');
    assert.deepEqual((await search(3)).json().data, [['m1']]);
    const similarity = await post(server.url, 'SELECT VECTOR_COSINE_SIMILARITY([1, 2], [3, 4]) AS s', db);
    assert.deepEqual(similarity.json().data, [[0.9838699100999074]]);
  });

  test('failNextQueries answers with injected statuses, then serves normally', async () => {
    server.failNextQueries([429, 503]);
    assert.equal((await post(server.url, 'SELECT 1', db)).status, 429);
    assert.equal((await post(server.url, 'SELECT 1', db)).status, 503);
    assert.equal((await post(server.url, 'SELECT 1', db)).status, 200);
  });

  test('pause refuses connections until resume', async () => {
    await server.pause();
    await assert.rejects(post(server.url, 'SELECT 1', db));
    await server.resume();
    assert.equal((await post(server.url, 'SELECT 1', db)).status, 200);
  });
});

describe('Firebolt test server without vector search', () => {
  test('VECTOR_SEARCH is an unknown function', async () => {
    const server = await startFireboltTestServer({ vectorSearch: false });
    try {
      await post(server.url, 'CREATE TABLE t (e ARRAY(REAL NOT NULL) NOT NULL)', {});
      const response = await post(
        server.url,
        'SELECT * FROM VECTOR_SEARCH(INDEX t_idx, target_vector => [1.0], top_k => 1)',
        {},
      );
      assert.equal(response.status, 400);
      assert.match(response.json().errors[0].description, /VECTOR_SEARCH does not exist/u);
    } finally {
      await server.close();
    }
  });
});
