import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decoderFor, parseJsonCompactDocument, resultFromDocument } from '../../src/stores/firebolt/resultParser.ts';
import { encodeQueryParameters } from '../../src/stores/firebolt/queryParameters.ts';

test('JSON_Compact values decode by meta type without precision loss', () => {
  const body =
    '{"meta":[{"name":"big","type":"long"},{"name":"small","type":"bigint null"},{"name":"f","type":"double"},{"name":"r","type":"array(real null)"},' +
    '{"name":"t","type":"timestamptz"},{"name":"b","type":"boolean"}],' +
    '"data":[[18446744073709551615,"42",0.1,[1.5,null,"nan"],"2024-01-02 03:04:05.678901-05:30",true]],"rows":1}';
  const { rows } = resultFromDocument(parseJsonCompactDocument(body));
  assert.equal(rows[0].big, 18446744073709551615n);
  assert.equal(rows[0].small, 42);
  assert.equal(rows[0].f, 0.1);
  assert.deepEqual(rows[0].r, [1.5, null, NaN]);
  assert.equal(rows[0].t, '2024-01-02T08:34:05.678Z');
  assert.equal(rows[0].b, true);
});

test('inf strings and plain timestamps', () => {
  assert.equal(decoderFor('double')('-inf'), -Infinity);
  assert.equal(decoderFor('timestamp null')('2024-01-02 03:04:05'), '2024-01-02T03:04:05.000Z');
  assert.equal(decoderFor('timestamptz')(null), null);
});

test('query_parameters keep bigint digits and nested arrays', () => {
  assert.equal(
    encodeQueryParameters([12345678901234567890n, ['a"b', 1], null]),
    '[{"name":"$1","value":12345678901234567890},{"name":"$2","value":["a\\"b",1]},{"name":"$3","value":null}]',
  );
});
