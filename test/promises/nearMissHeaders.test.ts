import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { embeddingConfigFromEnv } from '../../src/runtime/runtimeConfig.ts';
import { startPanelHarness, TOKEN as PANEL_TOKEN, type PanelHarness } from '../panel/panelHarness.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every check that accepts exactly one form (SECURITY.md: DNS rebinding, token, panel session
 * riding; README "Embeddings": a local Ollama only), tested with each accepted form, which must
 * pass, and with look-alikes generated from it (a suffix domain, userinfo, a trailing dot, another
 * port, case and spacing variants, IPv6 and numeric spellings), which must not.
 */

const TOKEN = 'near-miss-token-0123456789abcdef0123456789ab';
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'near-miss', version: '1' } },
});

/** One raw request: the Host header is exactly what is given (fetch would set its own). */
function send(
  port: number,
  options: { method?: string; path?: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: options.headers,
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The host names the server answers to, and look-alikes of each that name somewhere else (or nothing). */
const ALLOWED_HOSTS = ['127.0.0.1', 'localhost', '[::1]'] as const;
function hostNearMisses(host: string, port: number): string[] {
  const bare = host.replace(/^\[|\]$/g, '');
  return [
    `${host}.evil.example:${port}`,
    `${host}:${port}.evil.example`,
    `${host}:${port}@evil.example`,
    `evil.example@${host}:${port}`,
    `${host}.:${port}`,
    `${host}:${port + 1}`,
    `${host}:0${port}`,
    `${host}`,
    `${host}:`,
    `${host.toUpperCase()}:${port}x`,
    `x${host}:${port}`,
    `${bare}x:${port}`,
    `${host}:${port}/`,
    `${host}:${port}:${port}`,
  ];
}
const NUMERIC_LOOK_ALIKES = (port: number): string[] => [
  `0.0.0.0:${port}`,
  `127.1:${port}`,
  `2130706433:${port}`,
  `0x7f000001:${port}`,
  `127.0.0.2:${port}`,
  `[::ffff:127.0.0.1]:${port}`,
  `[0:0:0:0:0:0:0:1]:${port}`,
  `::1:${port}`,
  `[::1]`,
];

describe('only the exact Host, Origin and bearer token are accepted (DNS rebinding, token theft)', () => {
  let test: TestCore;
  let server: RunningHttpServer;
  const headers = (extra: Record<string, string>): Record<string, string> => ({
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${TOKEN}`,
    ...extra,
  });

  before(async () => {
    test = await createTestCore();
    server = await startHttpServer(
      { core: test.core },
      { port: 0, token: TOKEN, rateLimit: { perMinute: 0, burst: 0 } },
    );
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('answers each allowed Host with its port, and refuses every look-alike of each with 403', async () => {
    const port = server.port;
    for (const host of ALLOWED_HOSTS) {
      const accepted = await send(port, { headers: headers({ Host: `${host}:${port}` }), body: initialize });
      assert.equal(accepted.status, 200, `${host}:${port} refused: ${accepted.body}`);
      for (const nearMiss of hostNearMisses(host, port)) {
        const response = await send(port, { headers: headers({ Host: nearMiss }), body: initialize });
        assert.equal(response.status, 403, `Host ${nearMiss} → ${response.status}`);
      }
    }
    for (const nearMiss of NUMERIC_LOOK_ALIKES(port)) {
      assert.equal(
        (await send(port, { headers: headers({ Host: nearMiss }), body: initialize })).status,
        403,
        `Host ${nearMiss}`,
      );
    }
  });

  it('answers each allowed Origin, and refuses every look-alike of each with 403, even with the right token', async () => {
    const port = server.port;
    for (const host of ALLOWED_HOSTS) {
      const origin = `http://${host}:${port}`;
      const accepted = await send(port, {
        headers: headers({ Host: `127.0.0.1:${port}`, Origin: origin }),
        body: initialize,
      });
      assert.equal(accepted.status, 200, `${origin} refused: ${accepted.body}`);
      for (const nearMiss of [
        `https://${host}:${port}`,
        `HTTP://${host}:${port}`,
        `http://${host}:${port}/`,
        `http://${host}:${port}.evil.example`,
        `http://${host}.evil.example:${port}`,
        `http://${host}:${port}@evil.example`,
        `http://evil.example@${host}:${port}`,
        `http://${host}:${port + 1}`,
        `http://${host}`,
        `http://http://${host}:${port}`,
        `ws://${host}:${port}`,
        `${host}:${port}`,
        `null`,
        `file://`,
      ]) {
        const response = await send(port, {
          headers: headers({ Host: `127.0.0.1:${port}`, Origin: nearMiss }),
          body: initialize,
        });
        assert.equal(response.status, 403, `Origin ${nearMiss} → ${response.status}`);
      }
    }
  });

  it('accepts the token only as "Bearer <token>"; every look-alike of the header is 401', async () => {
    const port = server.port;
    const host = { Host: `127.0.0.1:${port}` };
    assert.equal((await send(port, { headers: headers(host), body: initialize })).status, 200);
    const swapCase = (text: string): string => text.replace(/[a-z]/, (letter) => letter.toUpperCase());
    for (const authorization of [
      `bearer ${TOKEN}`,
      `BEARER ${TOKEN}`,
      `Bearer\t${TOKEN}`,
      `Bearer${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer x${TOKEN}`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${swapCase(TOKEN)}`,
      `Bearer ${TOKEN} ${TOKEN}`,
      `Bearer ${TOKEN},Bearer ${TOKEN}`,
      `Bearer "${TOKEN}"`,
      `Bearer ${Buffer.from(TOKEN).toString('base64')}`,
      `Bearer ${encodeURIComponent(TOKEN).replace(/-/g, '%2D')}`,
      `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`,
      `Token ${TOKEN}`,
      TOKEN,
      'Bearer ',
      '',
    ]) {
      const response = await send(port, {
        headers: headers({ ...host, Authorization: authorization }),
        body: initialize,
      });
      assert.equal(
        response.status,
        401,
        `Authorization ${JSON.stringify(authorization.slice(0, 30))} → ${response.status}`,
      );
      assert.ok(!response.body.includes(TOKEN), 'the token is never echoed');
    }
  });
});

describe('the panel takes changes only as JSON from its own origin with its own cookie (session riding)', () => {
  let harness: PanelHarness;
  let port: number;
  let cookie: string;
  const ready = JSON.stringify({ kind: 'request', id: 1, method: 'panel/ready', params: {} });
  const post = (extra: Record<string, string>) =>
    send(port, { path: '/api/panel', headers: { Host: `127.0.0.1:${port}`, ...extra }, body: ready });

  before(async () => {
    harness = await startPanelHarness({ pollMs: 100 });
    port = harness.server.port;
    const entry = await fetch(harness.pageUrl, { redirect: 'manual' });
    cookie = (entry.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.match(cookie, /^fml_panel_\d+=/);
  });
  after(async () => harness.close());

  it('accepts application/json (any case, with parameters) and refuses every look-alike content type with 415', async () => {
    const sameOrigin = { Cookie: cookie, Origin: `http://127.0.0.1:${port}` };
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset=UTF-8',
    ]) {
      const response = await post({ ...sameOrigin, 'Content-Type': type });
      assert.equal(response.status, 200, `${type}: ${response.body}`);
    }
    for (const type of [
      'application/jsonp',
      'application/json5',
      'application/json-patch+json',
      'application/x-json',
      'application/jsonx; charset=utf-8',
      'text/plain; application/json',
      'text/plain;application/json',
      'text/json',
      'application/ json',
      'application/json, text/plain',
      'multipart/form-data; boundary=application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
    ]) {
      const response = await post({ ...sameOrigin, 'Content-Type': type });
      assert.equal(response.status, 415, `Content-Type ${type} → ${response.status}`);
    }
  });

  it('accepts the cookie only from its own origin: every look-alike of Sec-Fetch-Site or Origin is 403', async () => {
    const json = { Cookie: cookie, 'Content-Type': 'application/json' };
    assert.equal((await post({ ...json, 'Sec-Fetch-Site': 'same-origin' })).status, 200);
    assert.equal((await post({ ...json, Origin: `http://127.0.0.1:${port}` })).status, 200);
    for (const site of [
      'Same-Origin',
      'same-origin, cross-site',
      'same-site',
      'same-origin-allow-popups',
      'none',
      'cross-site',
      '',
    ]) {
      const response = await post({ ...json, 'Sec-Fetch-Site': site, Origin: `http://127.0.0.1:${port}` });
      assert.equal(response.status, 403, `Sec-Fetch-Site ${JSON.stringify(site)} → ${response.status}`);
    }
    // Origins the server itself answers (so they pass the rebinding check) but that are not the panel's own.
    for (const origin of [`http://localhost:${port}`, `http://[::1]:${port}`]) {
      assert.equal((await post({ ...json, Origin: origin })).status, 403, `Origin ${origin} on Host 127.0.0.1`);
    }
    assert.equal((await post(json)).status, 403, 'neither Origin nor Sec-Fetch-Site');
  });

  it('accepts only its own session cookie: every look-alike is 401', async () => {
    const [name, value] = cookie.split('=') as [string, string];
    const json = { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' };
    for (const candidate of [
      `${name}=${value.slice(0, -1)}`,
      `${name}=${value}x`,
      `${name}=${value.toUpperCase()}`,
      `${name}=${value.toLowerCase() === value ? value.toUpperCase() : value.toLowerCase()}`,
      `${name.replace(String(port), String(port + 1))}=${value}`,
      `${name}x=${value}`,
      `x${name}=${value}`,
      `${name.toUpperCase()}=${value}`,
      `${name}=${PANEL_TOKEN}`,
      `${name}=`,
      `${name}`,
      `${value}`,
    ]) {
      const response = await post({ ...json, Cookie: candidate });
      assert.equal(response.status, 401, `Cookie ${candidate} → ${response.status}`);
    }
    assert.equal((await post({ ...json, Cookie: `other=1; ${cookie}` })).status, 200, 'the cookie among others');
  });
});

describe('only an Ollama on this machine is accepted (README "Embeddings")', () => {
  const ollama = (url: string) => embeddingConfigFromEnv({ FML_EMBEDDING_PROVIDER: 'ollama', FML_OLLAMA_URL: url });
  for (const url of [
    'http://localhost:11434',
    'http://127.0.0.1:11434',
    'http://[::1]:11434',
    'http://LOCALHOST:11434/',
    'http://127.0.0.1',
  ]) {
    it(`accepts ${url}`, () => assert.doesNotThrow(() => ollama(url)));
  }
  for (const url of [
    'http://127.0.0.1.evil.example:11434',
    'http://localhost.evil.example:11434',
    'http://localhost@evil.example:11434',
    'http://localhost:11434@evil.example',
    'http://127.0.0.1:11434@evil.example/',
    'http://evil.example/localhost:11434',
    'http://evil.example?host=localhost',
    'http://evil.example#localhost',
    'http://evillocalhost:11434',
    'http://localhost.:11434',
    'http://10.0.0.1:11434',
    'http://0.0.0.0:11434',
    'http://[::ffff:a00:1]:11434',
    'http://[2001:db8::1]:11434',
    'localhost:11434',
    '//localhost:11434',
  ]) {
    it(`refuses ${url} with CONFIGURATION_ERROR`, () => {
      assert.throws(
        () => ollama(url),
        (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR'),
      );
    });
  }
});
