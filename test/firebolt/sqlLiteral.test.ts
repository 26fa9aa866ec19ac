import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { sqlIdentifier, sqlLiteral } from '../../src/stores/firebolt/sqlLiteral.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';

const text = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('\u0000'));
const nasty = fc
  .array(fc.constantFrom("'", '"', '\\', '$1', '--', '/*', '*/', ';', '\n', 'é', '🧠', 'x'), { maxLength: 10 })
  .map((parts) => parts.join(''));

describe('sqlLiteral: the one audited escaping function', () => {
  test('renders scalars and vectors', () => {
    assert.equal(sqlLiteral("it's \\ fine"), "'it''s \\ fine'");
    assert.equal(sqlLiteral(null), 'NULL');
    assert.equal(sqlLiteral(true), 'TRUE');
    assert.equal(sqlLiteral(1e-7), '1e-7');
    assert.equal(sqlLiteral(Float32Array.of(0.5, -2)), '[0.5,-2]');
    assert.equal(sqlIdentifier('a"b'), '"a""b"');
  });

  test('rejects what has no Firebolt literal', () => {
    for (const bad of [NaN, Infinity, [1, NaN], 'nul\u0000byte']) {
      assert.throws(
        () => sqlLiteral(bad as never),
        (error: unknown) => MemoryError.is(error, 'INVALID_INPUT'),
      );
    }
  });

  describe('round-trips through the engine', () => {
    let server: FireboltTestServer;
    let client: FireboltQueryClient;
    before(async () => {
      server = await startFireboltTestServer();
      client = new FireboltQueryClient({ kind: 'core', url: server.url, database: 'literals' });
    });
    after(async () => {
      client.close();
      await server.close();
    });

    test('any string literal reads back unchanged, any identifier names the column', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(text, nasty),
          fc.oneof(text, nasty).filter((s) => s.length > 0),
          async (value, name) => {
            const { rows, columns } = await client.query(`SELECT ${sqlLiteral(value)} AS ${sqlIdentifier(name)}`);
            assert.equal(columns[0].name, name);
            assert.equal(rows[0][name], value);
          },
        ),
        { numRuns: 100 },
      );
    });

    // The sign of zero is not kept (-0 prints as 0); cosine similarity does not see it.
    test('any finite float32 vector reads back exactly as REAL, up to the sign of zero', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 16 }),
          async (values) => {
            const vector = Float32Array.from(values);
            const { rows } = await client.query(`SELECT ${sqlLiteral(vector)}::ARRAY(REAL) AS v`);
            assert.deepEqual(
              Float32Array.from(rows[0].v as number[]),
              vector.map((x) => (x === 0 ? 0 : x)),
            );
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
