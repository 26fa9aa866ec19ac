import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import { post } from './httpHelpers.ts';

const account = { clientId: 'id-1', clientSecret: 's3cr3t', account: 'acme', accountId: 'acc-42', engine: 'eng1' };

describe('Firebolt test server: Cloud endpoints', () => {
  test('token, engine URL, USE DATABASE / USE ENGINE, bearer required', async () => {
    const server = await startFireboltTestServer({ cloud: account });
    try {
      const denied = await fetch(new URL('/oauth/token', server.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'id-1', client_secret: 'wrong', grant_type: 'client_credentials' }),
      });
      assert.equal(denied.status, 401);
      const granted = await fetch(new URL('/oauth/token', server.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: 'id-1',
          client_secret: 's3cr3t',
          grant_type: 'client_credentials',
          audience: 'https://api.firebolt.io',
        }),
      });
      const token = (await granted.json()) as { access_token: string; token_type: string; expires_in: number };
      assert.equal(token.token_type, 'Bearer');
      const auth = { Authorization: `Bearer ${token.access_token}` };
      assert.equal((await fetch(new URL('/web/v3/account/acme/engineUrl', server.url))).status, 401);
      const engineUrl = (await (
        await fetch(new URL('/web/v3/account/acme/engineUrl', server.url), { headers: auth })
      ).json()) as { engineUrl: string };
      assert.match(engineUrl.engineUrl, /^127\.0\.0\.1:\d+\?account_id=acc-42$/u);

      assert.equal((await post(server.url, 'SELECT 1', {}, undefined, '/query')).status, 401);
      assert.equal(
        (await post(server.url, 'CREATE DATABASE IF NOT EXISTS "clouddb"', {}, undefined, '/query', auth)).status,
        200,
      );
      const use = await post(server.url, 'USE DATABASE "clouddb"', {}, undefined, '/query', auth);
      assert.equal(use.headers.get('firebolt-update-parameters'), 'database=clouddb');
      const engine = await post(server.url, 'USE ENGINE "eng1"', { database: 'clouddb' }, undefined, '/query', auth);
      const header = engine.headers.get('firebolt-update-endpoint') ?? '';
      assert.match(header, /^127\.0\.0\.1:\d+\/engines\/eng1\?/u, 'a host without a scheme, as real Cloud sends it');
      const endpoint = new URL(`http://${header}`);
      assert.equal(endpoint.pathname, '/engines/eng1');
      assert.equal(endpoint.searchParams.get('engine'), 'eng1');
      const systemDml = await post(server.url, 'SELECT 1', { database: 'clouddb' }, undefined, '/query', auth);
      assert.equal(systemDml.status, 400, 'the system engine does not run queries against tables');
      const onEngine = await post(
        server.url,
        'SELECT 1 AS one',
        { database: 'clouddb' },
        undefined,
        endpoint.pathname,
        auth,
      );
      assert.deepEqual(onEngine.json().data, [[1]]);
    } finally {
      await server.close();
    }
  });
});

describe('Firebolt test server as a process', () => {
  test('main.ts --port N serves queries and stops on SIGTERM', async () => {
    const probe = await startFireboltTestServer();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const main = fileURLToPath(new URL('../support/firebolt-server/main.ts', import.meta.url));
    const child = spawn(process.execPath, [main, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      assert.match(chunk.toString(), new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`, 'u'));
      const response = await post(`http://127.0.0.1:${port}`, 'SELECT 42 AS answer', {});
      assert.deepEqual(response.json().data, [[42]]);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
