import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'node:http';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const TOKEN = 'test-token-0123456789abcdef0123456789abcdef';

function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: options.headers ?? {},
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const jsonHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('Streamable HTTP transport', () => {
  let test: TestCore;
  let server: RunningHttpServer;

  before(async () => {
    test = await createTestCore();
    server = await startHttpServer(
      { core: test.core },
      { port: 0, token: TOKEN, rateLimit: { perMinute: 600, burst: 30 } },
    );
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('binds to 127.0.0.1 and serves a real MCP client with the token', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const stored = await client.callTool({
      name: 'store_memory',
      arguments: {
        user_id: 'h',
        content: 'HTTP works end to end',
        memory_category: 'semantic',
        memory_subtype: 'project',
      },
    });
    assert.equal(stored.isError, undefined);
    const recalled = await client.callTool({
      name: 'recall_memories',
      arguments: { user_id: 'h', query: 'http end to end' },
    });
    assert.equal((recalled.structuredContent as { memories: unknown[] }).memories.length, 1);
    await client.close();
  });

  it('refuses a missing or wrong token with 401', async () => {
    assert.equal(
      (
        await rawRequest(server.port, {
          headers: { ...jsonHeaders, Host: `127.0.0.1:${server.port}` },
          body: initialize,
        })
      ).status,
      401,
    );
    const wrong = await rawRequest(server.port, {
      headers: { ...jsonHeaders, Authorization: 'Bearer nope' },
      body: initialize,
    });
    assert.equal(wrong.status, 401);
    assert.equal(JSON.parse(wrong.body).error.data.code, 'UNAUTHORIZED');
    assert.ok(!wrong.body.includes(TOKEN));
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding)', async () => {
    const auth = { ...jsonHeaders, Authorization: `Bearer ${TOKEN}` };
    assert.equal(
      (await rawRequest(server.port, { headers: { ...auth, Host: 'evil.example:80' }, body: initialize })).status,
      403,
    );
    assert.equal(
      (await rawRequest(server.port, { headers: { ...auth, Origin: 'http://evil.example' }, body: initialize })).status,
      403,
    );
    assert.equal(
      (
        await rawRequest(server.port, {
          headers: { ...auth, Origin: `http://127.0.0.1:${server.port}` },
          body: initialize,
        })
      ).status,
      200,
    );
  });

  it('refuses oversized bodies with 413 and non-JSON with 400', async () => {
    const auth = { ...jsonHeaders, Authorization: `Bearer ${TOKEN}` };
    const oversized = await rawRequest(server.port, {
      headers: { ...auth, 'Content-Length': String(1024 * 1024 + 10) },
    });
    assert.equal(oversized.status, 413);
    assert.equal(JSON.parse(oversized.body).error.data.code, 'CONTENT_TOO_LONG');
    assert.equal((await rawRequest(server.port, { headers: auth, body: '{not json' })).status, 400);
  });

  it('rate-limits a client with 429 and Retry-After', async () => {
    const limited = await startHttpServer(
      { core: test.core },
      { port: 0, token: TOKEN, rateLimit: { perMinute: 60, burst: 2 } },
    );
    try {
      const auth = { ...jsonHeaders, Authorization: `Bearer ${TOKEN}` };
      const statuses = [];
      for (let index = 0; index < 4; index++)
        statuses.push((await rawRequest(limited.port, { headers: auth, body: initialize })).status);
      assert.deepEqual(statuses.slice(0, 2), [200, 200]);
      const refused = await rawRequest(limited.port, { headers: auth, body: initialize });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
    } finally {
      await limited.close();
    }
  });

  it('reports a taken port clearly', async () => {
    await assert.rejects(
      startHttpServer({ core: test.core }, { port: server.port, token: TOKEN }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONFIGURATION_ERROR');
        assert.match(error.message, /already in use/);
        return true;
      },
    );
  });
});
