import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { ASSETS_DIR, type PanelHarness, startPanelHarness, TOKEN as PANEL_TOKEN } from '../panel/panelHarness.ts';
import { existsSync } from 'node:fs';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * HTTP hardening beyond test/mcp/httpTransport.test.ts (which covers the basic 401/403/413/429):
 * near-miss tokens, limits per client, typed 429s, and the same token check on the panel routes.
 */
const TOKEN = 'hardening-token-0123456789abcdef0123456789ab';
const jsonHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hardening', version: '1' } },
});
const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: options.headers ?? {},
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

async function openSession(port: number): Promise<string> {
  const response = await send(port, {
    headers: { ...jsonHeaders, Authorization: `Bearer ${TOKEN}` },
    body: initialize,
  });
  assert.equal(response.status, 200, response.body);
  return String(response.headers['mcp-session-id']);
}

describe('HTTP hardening of the MCP endpoint', () => {
  let test: TestCore;
  let server: RunningHttpServer;

  before(async () => {
    test = await createTestCore();
    server = await startHttpServer(
      { core: test.core },
      { port: 0, token: TOKEN, rateLimit: { perMinute: 60, burst: 5 } },
    );
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('refuses near-miss tokens with 401 and never echoes the token', async () => {
    const nearMisses = [
      TOKEN.slice(0, -1),
      `${TOKEN}x`,
      TOKEN.toUpperCase(),
      `${TOKEN.slice(0, -1)}c`,
      ` ${TOKEN.slice(1)}`,
      '',
    ];
    for (const candidate of nearMisses) {
      const response = await send(server.port, {
        headers: { ...jsonHeaders, Authorization: `Bearer ${candidate}` },
        body: initialize,
      });
      assert.equal(response.status, 401, `token ${JSON.stringify(candidate)}`);
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="fml"');
      assert.ok(!response.body.includes(TOKEN));
    }
    for (const scheme of [`Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, `Token ${TOKEN}`, TOKEN]) {
      assert.equal(
        (await send(server.port, { headers: { ...jsonHeaders, Authorization: scheme }, body: initialize })).status,
        401,
        scheme.slice(0, 8),
      );
    }
    assert.equal(
      (await send(server.port, { path: `/mcp?token=${TOKEN}`, headers: jsonHeaders, body: initialize })).status,
      401,
      'the MCP endpoint takes no token in the URL',
    );
  });

  it('checks Host and Origin before anything else, even with the right token', async () => {
    const auth = { ...jsonHeaders, Authorization: `Bearer ${TOKEN}` };
    for (const host of [
      `127.0.0.1.evil.example:${server.port}`,
      `localhost:${server.port + 1}`,
      'localhost',
      `LOCALHOST:${server.port}x`,
    ]) {
      assert.equal((await send(server.port, { headers: { ...auth, Host: host }, body: initialize })).status, 403, host);
    }
    for (const origin of [
      'null',
      `http://127.0.0.1:${server.port}.evil.example`,
      `https://localhost:${server.port}/x`,
      'http://evil.example',
    ]) {
      const response = await send(server.port, { headers: { ...auth, Origin: origin }, body: initialize });
      assert.equal(response.status, 403, origin);
      assert.equal(JSON.parse(response.body).error.data.code, 'FORBIDDEN');
    }
  });

  it('refuses a body that grows past the limit without a Content-Length (chunked) with 413', async () => {
    const limited = await startHttpServer({ core: test.core }, { port: 0, token: TOKEN, maxBodyBytes: 4096 });
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { padding: 'p'.repeat(10_000) },
      });
      const response = await send(limited.port, {
        headers: { ...jsonHeaders, Authorization: `Bearer ${TOKEN}`, 'Transfer-Encoding': 'chunked' },
        body,
      });
      assert.equal(response.status, 413);
      assert.equal(JSON.parse(response.body).error.data.code, 'CONTENT_TOO_LONG');
    } finally {
      await limited.close();
    }
  });

  it('limits each client on its own: a client over its limit gets 429, another client is still served', async () => {
    const [noisy, quiet] = [await openSession(server.port), await openSession(server.port)];
    const call = (session: string) =>
      send(server.port, {
        headers: {
          ...jsonHeaders,
          Authorization: `Bearer ${TOKEN}`,
          'Mcp-Session-Id': session,
          'MCP-Protocol-Version': '2025-06-18',
        },
        body: listTools,
      });
    const statuses: number[] = [];
    for (let index = 0; index < 8; index++) statuses.push((await call(noisy)).status);
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
    assert.ok(
      statuses.slice(5).every((status) => status === 429),
      statuses.join(','),
    );
    const refused = await call(noisy);
    assert.equal(refused.status, 429);
    assert.equal(JSON.parse(refused.body).error.data.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal((await call(quiet)).status, 200, 'the other client is not limited');
  });

  it('does not let unauthenticated requests drain a client budget', async () => {
    const session = await openSession(server.port);
    for (let index = 0; index < 10; index++)
      assert.equal(
        (
          await send(server.port, {
            headers: { ...jsonHeaders, Authorization: 'Bearer wrong', 'Mcp-Session-Id': session },
            body: listTools,
          })
        ).status,
        401,
      );
    const served = await send(server.port, {
      headers: {
        ...jsonHeaders,
        Authorization: `Bearer ${TOKEN}`,
        'Mcp-Session-Id': session,
        'MCP-Protocol-Version': '2025-06-18',
      },
      body: listTools,
    });
    assert.equal(served.status, 200);
  });
});

describe(
  'HTTP hardening of the panel routes',
  { skip: existsSync(`${ASSETS_DIR}/main.js`) ? false : 'the panel is not built (dist/webview/main.js missing)' },
  () => {
    let harness: PanelHarness;
    before(async () => {
      harness = await startPanelHarness({ pollMs: 100 });
    });
    after(async () => harness.close());

    it('compares the token on every panel route: near misses, wrong cookies and the events stream get 401', async () => {
      const port = Number(new URL(harness.server.url).port);
      const ready = JSON.stringify({ kind: 'request', id: 1, method: 'panel/ready', params: {} });
      for (const candidate of [PANEL_TOKEN.slice(0, -1), `${PANEL_TOKEN}x`, PANEL_TOKEN.toUpperCase()]) {
        assert.equal(
          (
            await send(port, {
              path: '/api/panel',
              headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${candidate}` },
              body: ready,
            })
          ).status,
          401,
        );
        assert.equal(
          (await send(port, { method: 'GET', path: `/?token=${encodeURIComponent(candidate)}` })).status,
          401,
        );
      }
      assert.equal(
        (
          await send(port, {
            path: '/api/panel',
            headers: { 'Content-Type': 'application/json', Cookie: 'fml_panel=wrong' },
            body: ready,
          })
        ).status,
        401,
      );
      assert.equal(
        (
          await send(port, {
            path: `/api/panel?token=${PANEL_TOKEN}`,
            headers: { 'Content-Type': 'application/json' },
            body: ready,
          })
        ).status,
        401,
        'the API takes no token in the URL',
      );
      const events = await send(port, { method: 'GET', path: '/api/panel/events' });
      assert.equal(events.status, 401);
      assert.ok(!events.body.includes(PANEL_TOKEN));
      const good = await send(port, {
        path: '/api/panel',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${PANEL_TOKEN}` },
        body: ready,
      });
      assert.equal(good.status, 200);
    });
  },
);
