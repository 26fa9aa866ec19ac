import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { endpointFromHeader } from '../../src/stores/firebolt/engineEndpoint.ts';
import { inlineParameters } from '../../src/stores/firebolt/inlineParameters.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import {
  MAX_REQUEST_TARGET_BYTES,
  batchesByEncodedSize,
  encodedParameterBytes,
} from '../../src/stores/firebolt/requestTarget.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';

describe('Firebolt-Update-Endpoint parsing', () => {
  test('a bare host takes the scheme of the endpoint that answered; an explicit scheme is kept', () => {
    const system = new URL('https://acct.api.firebolt.io/query');
    const bare = endpointFromHeader('eng-1.firebolt.io/x?engine=e&account_id=a', system);
    assert.equal(bare.href, 'https://eng-1.firebolt.io/x?engine=e&account_id=a');
    assert.equal(endpointFromHeader('http://127.0.0.1:9/e', system).href, 'http://127.0.0.1:9/e');
    assert.equal(
      endpointFromHeader('127.0.0.1:9/e?engine=x', new URL('http://127.0.0.1:9/query')).href,
      'http://127.0.0.1:9/e?engine=x',
    );
  });
});

describe('parameters too large for the URL', () => {
  test('inlineParameters replaces placeholders outside literals, identifiers and comments only', () => {
    const sql = `SELECT $1::TEXT AS a, '$1' AS b, "$2" AS c, $2::DOUBLE PRECISION AS d -- $1\n, $10::TEXT AS e`;
    const params = ["it's $2", -1.5, null, null, null, null, null, null, null, 'ten'];
    assert.equal(
      inlineParameters(sql, params),
      `SELECT 'it''s $2'::TEXT AS a, '$1' AS b, "$2" AS c, (-1.5)::DOUBLE PRECISION AS d -- $1\n, 'ten'::TEXT AS e`,
    );
    assert.equal(
      inlineParameters('SELECT $1::ARRAY(TEXT), $2::DOUBLE PRECISION, $3::BIGINT', [
        [],
        Number.POSITIVE_INFINITY,
        12345678901234567890n,
      ]),
      "SELECT []::ARRAY(TEXT), 'inf'::DOUBLE PRECISION, 12345678901234567890::BIGINT",
    );
  });

  test('a statement whose parameters exceed the limit sends them in the body and the values round-trip exactly', async () => {
    const server = await startFireboltTestServer();
    const client = new FireboltQueryClient({ kind: 'core', url: server.url, database: 'shape' });
    try {
      const hostile = `'; DROP TABLE x; -- $1 \\ "q" ${'ü'.repeat(5000)}`;
      const { rows } = await client.query('SELECT $1::TEXT AS s, $2::ARRAY(TEXT) AS a, $3::BIGINT AS n', [
        hostile,
        ["o'k", ''],
        9007199254740993n,
      ]);
      assert.deepEqual(rows, [{ s: hostile, a: ["o'k", ''], n: 9007199254740993n }]);
      const request = server.requests.at(-1)!;
      assert.equal(request.params.query_parameters, undefined, 'the values are not in the URL');
      assert.ok(Buffer.byteLength(request.target) <= MAX_REQUEST_TARGET_BYTES);
      await client.query('SELECT $1::TEXT AS s', ['small']);
      assert.ok(server.requests.at(-1)!.params.query_parameters, 'small values stay server-side parameters');
    } finally {
      client.close();
      await server.close();
    }
  });

  test('batches are cut by encoded size, and a record too large alone is a batch of its own', () => {
    const records = ['a', 'b', 'é'.repeat(1500), 'c', 'é'.repeat(300), 'é'.repeat(300), 'é'.repeat(300)];
    const batches = batchesByEncodedSize(records, (record) => [record], 50);
    assert.deepEqual(batches.flat(), records);
    for (const batch of batches) {
      assert.ok(
        batch.length === 1 || encodedParameterBytes(batch) <= MAX_REQUEST_TARGET_BYTES,
        `batch of ${batch.length}`,
      );
    }
    assert.ok(batches.some((batch) => batch.length === 1 && batch[0] === 'é'.repeat(1500)));
  });
});
