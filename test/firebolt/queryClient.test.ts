import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';

const fastRetry = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

describe('FireboltQueryClient against Core', () => {
  let server: FireboltTestServer;
  let client: FireboltQueryClient;

  before(async () => {
    server = await startFireboltTestServer();
    client = new FireboltQueryClient({ kind: 'core', url: server.url, database: 'client_db' }, { retry: fastRetry });
    await client.query(
      'CREATE TABLE IF NOT EXISTS t (id TEXT NOT NULL, n BIGINT NOT NULL, ok BOOLEAN NOT NULL, at TIMESTAMPTZ NOT NULL, v ARRAY(REAL NOT NULL) NOT NULL) PRIMARY INDEX id',
    );
  });
  after(async () => {
    client.close();
    await server.close();
  });

  test('connect creates the database, then every request names it and asks for JSON_Compact', () => {
    const [create, next] = server.requests;
    assert.equal(create.body, 'CREATE DATABASE IF NOT EXISTS "client_db"');
    assert.equal(create.params.database, undefined);
    assert.equal(next.params.database, 'client_db');
    assert.equal(next.params.output_format, 'JSON_Compact');
    assert.equal(next.headers['firebolt-protocol-version'], '2.4');
    assert.equal(next.headers.authorization, undefined, 'Core gets no Authorization header');
  });

  test('results are typed by meta without precision loss', async () => {
    await client.query(
      'INSERT INTO t (id, n, ok, at, v) VALUES ($1, 9007199254740993, $2, $3::TIMESTAMPTZ, [0.1, -2.5])',
      ['a', true, '2024-05-06T07:08:09.123Z'],
    );
    const { rows, columns } = await client.query('SELECT id, n, ok, at, v, 1.0 / 3 AS third FROM t WHERE id = $1', [
      'a',
    ]);
    assert.deepEqual(
      columns.map((column) => column.type),
      ['text', 'long', 'boolean', 'timestamptz', 'array(real)', 'double'],
    );
    assert.deepEqual(rows, [
      { id: 'a', n: 9007199254740993n, ok: true, at: '2024-05-06T07:08:09.123Z', v: [0.1, -2.5], third: 1 / 3 },
    ]);
    assert.equal(Math.fround(rows[0].v instanceof Array ? (rows[0].v[0] as number) : 0), Math.fround(0.1));
  });

  test('retries 429 and 503, then succeeds', async () => {
    server.failNextQueries([429, 503]);
    const { rows } = await client.query('SELECT COUNT(*) AS c FROM t');
    assert.deepEqual(rows, [{ c: 1 }]);
  });

  test('a 500 on a non-idempotent write is not replayed; on an idempotent one it is', async () => {
    server.failNextQueries([500]);
    await assert.rejects(
      client.query("INSERT INTO t (id, n, ok, at, v) VALUES ('b', 1, TRUE, CURRENT_TIMESTAMP, [1])"),
      (error: unknown) => {
        assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'));
        assert.equal(error.details?.status, 500);
        return true;
      },
    );
    server.failNextQueries([500]);
    await client.query("DELETE FROM t WHERE id = 'zzz'", [], { idempotent: true });
  });

  test('SQL errors surface as PROVIDER_ERROR with the engine description', async () => {
    await assert.rejects(client.query('SELECT missing_column FROM t'), (error: unknown) => {
      assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'));
      assert.match(error.message, /missing_column/u);
      assert.equal(error.details?.status, 400);
      return true;
    });
  });

  test('an outage is retried until the server is back', async () => {
    await server.pause();
    const pending = new FireboltQueryClient(
      { kind: 'core', url: server.url, database: 'client_db' },
      { retry: { attempts: 8, baseDelayMs: 20, maxDelayMs: 80 } },
    );
    const query = pending.query('SELECT COUNT(*) AS c FROM t');
    setTimeout(() => void server.resume(), 120);
    assert.deepEqual((await query).rows, [{ c: 1 }]);
    pending.close();
  });

  test('an outage longer than the retry budget fails with a transport error', async () => {
    await server.pause();
    try {
      await assert.rejects(client.query('SELECT 1 AS one'), (error: unknown) => {
        assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'));
        assert.equal(error.details?.transport_code, 'ECONNREFUSED');
        return true;
      });
    } finally {
      await server.resume();
    }
  });

  test('transactions carry transaction_id only inside BEGIN … COMMIT and roll back on failure', async () => {
    const before = server.requests.length;
    await client.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, n, ok, at, v) VALUES ('tx', 1, TRUE, CURRENT_TIMESTAMP, [1])");
    });
    await client.query('SELECT 1 AS one');
    const traffic = server.requests.slice(before);
    assert.deepEqual(
      traffic.map((request) => request.body.split(' ')[0]),
      ['BEGIN', 'INSERT', 'COMMIT', 'SELECT'],
    );
    assert.ok(traffic[1].params.transaction_id && traffic[2].params.transaction_id);
    assert.equal(traffic[3].params.transaction_id, undefined);

    await assert.rejects(
      client.transaction(async (tx) => {
        await tx.query("INSERT INTO t (id, n, ok, at, v) VALUES ('rolled', 1, TRUE, CURRENT_TIMESTAMP, [1])");
        await tx.query('SELECT nope FROM t');
      }),
    );
    assert.deepEqual((await client.query("SELECT COUNT(*) AS c FROM t WHERE id = 'rolled'")).rows, [{ c: 0 }]);
  });

  test('concurrent writes are serialised, so Core never sees two writers', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.transaction(async (tx) => {
          await tx.query('INSERT INTO t (id, n, ok, at, v) VALUES ($1, $2, FALSE, CURRENT_TIMESTAMP, [1])', [
            `p${i}`,
            i,
          ]);
        }),
      ),
    );
    assert.deepEqual((await client.query("SELECT COUNT(*) AS c FROM t WHERE id LIKE 'p%'")).rows, [{ c: 12 }]);
  });

  test('a transaction refused for a write conflict with another process is replayed whole after backoff', async () => {
    // Two clients are two processes: each serialises its own writes, nothing serialises them together.
    let inserted!: () => void;
    const otherHasWritten = new Promise<void>((resolve) => (inserted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const other = new FireboltQueryClient(
      { kind: 'core', url: server.url, database: 'client_db' },
      { retry: fastRetry },
    );
    const otherDone = other.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, n, ok, at, v) VALUES ('other', 1, TRUE, CURRENT_TIMESTAMP, [1])");
      inserted();
      await released;
    });
    await otherHasWritten;
    const backoffs: number[] = [];
    // The backoff is where the other process finishes; no clock is involved.
    const mine = new FireboltQueryClient(
      { kind: 'core', url: server.url, database: 'client_db' },
      {
        retry: fastRetry,
        sleep: async (ms) => {
          backoffs.push(ms);
          release();
          await otherDone;
        },
      },
    );
    let runs = 0;
    const before = server.requests.length;
    await mine.transaction(async (tx) => {
      runs += 1;
      await tx.query("INSERT INTO t (id, n, ok, at, v) VALUES ('mine', 1, TRUE, CURRENT_TIMESTAMP, [1])");
      await tx.query("INSERT INTO t (id, n, ok, at, v) VALUES ('mine2', 1, TRUE, CURRENT_TIMESTAMP, [1])");
    });
    const traffic = server.requests
      .slice(before)
      .filter((request) => request.params.transaction_id || request.body.startsWith('BEGIN'));
    assert.equal(runs, 2);
    assert.equal(backoffs.length, 1);
    // The lone COMMIT is the other process's, made while this one backed off.
    assert.deepEqual(
      traffic.map((request) => request.body.split(' ')[0]),
      ['BEGIN', 'INSERT', 'ROLLBACK', 'COMMIT', 'BEGIN', 'INSERT', 'INSERT', 'COMMIT'],
    );
    assert.deepEqual((await client.query("SELECT id FROM t WHERE id IN ('other', 'mine', 'mine2') ORDER BY id")).rows, [
      { id: 'mine' },
      { id: 'mine2' },
      { id: 'other' },
    ]);
    other.close();
    mine.close();
  });

  test('write conflicts are retried even for a non-idempotent statement, and only up to the bound', async () => {
    server.failNextQueries([409]);
    await client.query("INSERT INTO t (id, n, ok, at, v) VALUES ('once', 1, TRUE, CURRENT_TIMESTAMP, [1])");
    assert.deepEqual((await client.query("SELECT COUNT(*) AS c FROM t WHERE id = 'once'")).rows, [{ c: 1 }]);

    server.failNextQueries([409, 409, 409, 409]);
    const error = await client
      .query("INSERT INTO t (id, n, ok, at, v) VALUES ('never', 1, TRUE, CURRENT_TIMESTAMP, [1])")
      .then(
        () => assert.fail('four conflicts exhaust four attempts'),
        (failure: unknown) => failure,
      );
    assert.ok(error instanceof MemoryError);
    assert.equal(error.details?.status, 409);
    assert.equal(error.details?.conflict, true);
    assert.equal(
      error.details?.retryable,
      true,
      'the resilient store keeps a conflicted write queued instead of rejecting it',
    );
  });
});

describe('FireboltQueryClient against Cloud', () => {
  const account = {
    clientId: 'svc-id',
    clientSecret: 'very-secret-value',
    account: 'acme',
    accountId: 'acc-7',
    engine: 'eng_main',
  };

  test('token, engine URL, database and engine resolution, then queries on the user engine', async () => {
    const server = await startFireboltTestServer({ cloud: account });
    const client = new FireboltQueryClient(
      {
        kind: 'cloud',
        clientId: account.clientId,
        clientSecret: account.clientSecret,
        account: 'acme',
        database: 'cloud_db',
        engine: 'eng_main',
        apiEndpoint: server.url,
      },
      { retry: fastRetry },
    );
    try {
      const { rows } = await client.query('SELECT 7 AS seven');
      assert.deepEqual(rows, [{ seven: 7 }]);
      const paths = server.requests.map(
        (request) => `${request.method} ${request.path} ${request.body.split(' ').slice(0, 2).join(' ')}`,
      );
      assert.deepEqual(paths.slice(0, 2), [
        'POST /oauth/token client_id=svc-id&client_secret=very-secret-value&grant_type=client_credentials&audience=https%3A%2F%2Fapi.firebolt.io',
        'GET /web/v3/account/acme/engineUrl ',
      ]);
      assert.deepEqual(paths.slice(2), [
        'POST /query CREATE DATABASE',
        'POST /query USE DATABASE',
        'POST /query USE ENGINE',
        'POST /engines/eng_main SELECT 7',
      ]);
      const last = server.requests.at(-1)!;
      assert.equal(last.params.database, 'cloud_db');
      assert.equal(last.params.engine, 'eng_main');
      assert.equal(last.params.account_id, 'acc-7');
      assert.match(String(last.headers.authorization), /^Bearer [0-9a-f]+$/u);
      for (const request of server.requests.slice(1))
        assert.ok(
          !JSON.stringify(request).includes(account.clientSecret),
          'the secret only travels in the token request',
        );
    } finally {
      client.close();
      await server.close();
    }
  });

  test('a revoked token is replaced once, transparently', async () => {
    const server = await startFireboltTestServer({ cloud: account });
    const client = new FireboltQueryClient(
      {
        kind: 'cloud',
        clientId: account.clientId,
        clientSecret: account.clientSecret,
        account: 'acme',
        database: 'cloud_db',
        engine: 'eng_main',
        apiEndpoint: server.url,
      },
      { retry: fastRetry },
    );
    try {
      await client.query('SELECT 1 AS one');
      server.revokeTokens();
      assert.deepEqual((await client.query('SELECT 2 AS two')).rows, [{ two: 2 }]);
      assert.equal(server.requests.filter((request) => request.path === '/oauth/token').length, 2);
    } finally {
      client.close();
      await server.close();
    }
  });

  test('wrong credentials are UNAUTHORIZED and the secret is never in the error', async () => {
    const server = await startFireboltTestServer({ cloud: account });
    const client = new FireboltQueryClient(
      {
        kind: 'cloud',
        clientId: account.clientId,
        clientSecret: 'wrong-secret-xyz',
        account: 'acme',
        database: 'cloud_db',
        engine: 'eng_main',
        apiEndpoint: server.url,
      },
      { retry: fastRetry },
    );
    try {
      await assert.rejects(client.query('SELECT 1 AS one'), (error: unknown) => {
        assert.ok(MemoryError.is(error, 'UNAUTHORIZED'));
        assert.ok(!JSON.stringify({ message: error.message, details: error.details }).includes('wrong-secret-xyz'));
        return true;
      });
    } finally {
      client.close();
      await server.close();
    }
  });

  test('configuration errors name the field', () => {
    assert.throws(
      () =>
        new FireboltQueryClient({
          kind: 'cloud',
          clientId: '',
          clientSecret: 'x',
          account: 'a',
          database: 'd',
          engine: 'e',
        }),
      (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR') && error.details?.field === 'clientId',
    );
    assert.throws(
      () => new FireboltQueryClient({ kind: 'core', url: 'http://localhost:3473', database: 'bad name' }),
      (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR'),
    );
  });
});
