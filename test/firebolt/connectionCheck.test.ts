import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { runFireboltCheck } from '../../src/cli/fireboltCheckCommand.ts';
import { checkFireboltConnection, formatConnectionReport } from '../../src/stores/firebolt/connectionCheck.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import { post } from '../firebolt-server/httpHelpers.ts';

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Firebolt connection check', () => {
  test('on Core: version, HNSW, VECTOR_SEARCH and a round trip on a scratch table that is dropped afterwards', async () => {
    const server = await startFireboltTestServer();
    try {
      const report = await checkFireboltConnection({ kind: 'core', url: server.url, database: 'checked' });
      assert.equal(report.ok, true, formatConnectionReport(report).join('\n'));
      assert.match(report.serverVersion ?? '', /firebolt-test-server/u);
      assert.equal(report.hnswUsable, true);
      assert.equal(report.vectorSearchUsable, true);
      assert.deepEqual(
        report.steps.filter((step) => !step.ok),
        [],
      );
      const index = server.requests.find((request) => request.body.startsWith('CREATE INDEX'))!;
      assert.equal(index.params.enable_vector_search_index_creation, '1');
      const table = /fml_check_[0-9a-f]+/u.exec(index.body)![0];
      const gone = await post(server.url, `SELECT COUNT(*) AS c FROM ${table}`, { database: 'checked' });
      assert.equal(gone.status, 400, 'the scratch table was dropped');
    } finally {
      await server.close();
    }
  });

  test('an engine without VECTOR_SEARCH still passes, reporting exact search', async () => {
    const server = await startFireboltTestServer({ vectorSearch: false });
    try {
      const report = await checkFireboltConnection({ kind: 'core', url: server.url, database: 'checked' });
      assert.equal(report.ok, true);
      assert.equal(report.vectorSearchUsable, false);
      const failed = report.steps.find((step) => !step.ok)!;
      assert.equal(failed.step, 'vector_search');
      assert.match(failed.advice ?? '', /exact cosine search/u);
    } finally {
      await server.close();
    }
  });

  test('nothing listening: the connect step fails with advice to start Core or fix the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const report = await checkFireboltConnection(
      { kind: 'core', url, database: 'checked' },
      { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } },
    );
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.steps.map((step) => [step.step, step.ok]),
      [['connect', false]],
    );
    assert.match(report.steps[0].advice ?? '', /Nothing listens at/u);
  });

  test('Cloud with a wrong secret: authentication advice, and the secret is not in the report', async () => {
    const account = { clientId: 'svc', clientSecret: 'right-secret', account: 'acme', accountId: 'acc', engine: 'eng' };
    const server = await startFireboltTestServer({ cloud: account });
    try {
      const report = await checkFireboltConnection({
        kind: 'cloud',
        clientId: 'svc',
        clientSecret: 'wrong-secret-123',
        account: 'acme',
        engine: 'eng',
        database: 'd',
        apiEndpoint: server.url,
      });
      assert.equal(report.ok, false);
      assert.match(report.steps[0].advice ?? '', /Authentication failed/u);
      assert.ok(!formatConnectionReport(report).join('\n').includes('wrong-secret-123'));
    } finally {
      await server.close();
    }
  });

  test('fml firebolt check exits 0 when the backend works and 1 when it does not', async () => {
    const server = await startFireboltTestServer();
    const previous = process.env.FIREBOLT_CORE_URL;
    try {
      const lines: string[] = [];
      process.env.FIREBOLT_CORE_URL = server.url;
      assert.equal(
        await runFireboltCheck({
          dataDir: '/nonexistent',
          backend: 'firebolt-core',
          write: (line) => lines.push(line),
        }),
        0,
      );
      assert.equal(lines.at(-1), 'Result: OK');
      process.env.FIREBOLT_CORE_URL = `http://127.0.0.1:${await closedPort()}`;
      assert.equal(
        await runFireboltCheck({ dataDir: '/nonexistent', backend: 'firebolt-core', write: () => undefined }),
        1,
      );
    } finally {
      if (previous === undefined) delete process.env.FIREBOLT_CORE_URL;
      else process.env.FIREBOLT_CORE_URL = previous;
      await server.close();
    }
  });
});
