import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const TOKEN = 'format-token-0123456789abcdef0123456789abcdef';

interface Reply {
  status: number;
  body: Record<string, any>;
}

/** A raw request, so the Host header can be set to what a DNS-rebinding page would send. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { Authorization: `Bearer ${TOKEN}`, ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: JSON.parse(text) as Record<string, any> }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The one shape of a route error: exactly these keys, retryable always present. */
function assertRouteError(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status);
  assert.deepEqual(Object.keys(reply.body), ['error']);
  assert.equal(reply.body.error.code, code);
  assert.equal(typeof reply.body.error.message, 'string');
  assert.equal(typeof reply.body.error.retryable, 'boolean');
}

/** A JSON-RPC error whose data is that same typed error. */
function assertRpcError(reply: Reply, status: number, rpcCode: number, code: string): void {
  assert.equal(reply.status, status);
  assert.equal(reply.body.jsonrpc, '2.0');
  assert.equal(reply.body.error.code, rpcCode);
  assert.equal(reply.body.error.data.code, code);
  assert.equal(reply.body.error.data.message, reply.body.error.message);
  assert.equal(typeof reply.body.error.data.retryable, 'boolean');
}

describe('one HTTP error format', () => {
  let test: TestCore;
  let server: RunningHttpServer;
  before(async () => {
    test = await createTestCore();
    server = await startHttpServer({ core: test.core }, { port: 0, token: TOKEN });
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('answers routes that are not JSON-RPC with { error: { code, message, retryable } }', async () => {
    assertRouteError(await send(server.port, 'GET', '/nowhere'), 404, 'NOT_FOUND');
    assertRouteError(await send(server.port, 'GET', '/openspec/v1/knowledge/a/b/c'), 404, 'NOT_FOUND');
    assertRouteError(await send(server.port, 'GET', '/openspec/v1/knowledge/query'), 405, 'METHOD_NOT_ALLOWED');
    assertRouteError(
      await send(server.port, 'GET', '/openspec/v1/knowledge', { Authorization: 'Bearer wrong' }),
      401,
      'UNAUTHORIZED',
    );
    assertRouteError(
      await send(server.port, 'GET', '/openspec/v1/knowledge', { Host: 'evil.example:80' }),
      403,
      'FORBIDDEN',
    );
    const invalid = await send(
      server.port,
      'POST',
      '/openspec/v1/knowledge/create',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ content: 'x', layer: 'galaxy', identifiers: { userId: 'u' } }),
    );
    assertRouteError(invalid, 400, 'INVALID_LAYER');
    assert.equal(invalid.body.error.operation, 'create', 'a memory error keeps its operation');
  });

  it('answers JSON-RPC requests on /mcp with JSON-RPC error bodies carrying the same typed error', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const json = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    assertRpcError(
      await send(server.port, 'POST', '/mcp', { ...json, Authorization: 'Bearer wrong' }, initialize),
      401,
      -32000,
      'UNAUTHORIZED',
    );
    assertRpcError(
      await send(server.port, 'POST', '/mcp', { ...json, Host: 'evil.example:80' }, initialize),
      403,
      -32000,
      'FORBIDDEN',
    );
    assertRpcError(
      await send(server.port, 'GET', '/mcp', { Accept: 'text/event-stream' }),
      405,
      -32000,
      'METHOD_NOT_ALLOWED',
    );
    assertRpcError(await send(server.port, 'POST', '/mcp', json, '{not json'), 400, -32700, 'INVALID_INPUT');
  });

  it('routes every spelling of the MCP path as /mcp, whether or not it is parsed as a URL', async () => {
    // "/mcp" itself skips the URL parser (issue 31); the spellings that need it must land on the same route.
    const json = { 'Content-Type': 'application/json', Authorization: 'Bearer wrong' };
    for (const path of ['/mcp', '/mcp?probe=1', '/./mcp', '/x/../mcp'])
      assertRpcError(await send(server.port, 'POST', path, json, '{}'), 401, -32000, 'UNAUTHORIZED');
    for (const path of ['/mcp/', '/MCP', '/mcpx'])
      assertRouteError(await send(server.port, 'POST', path, json, '{}'), 404, 'NOT_FOUND');
  });

  it("keeps the panel's HTTP side free of MCP code", () => {
    const source = readFileSync(new URL('../../src/panel/httpPanelRoutes.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
    assert.ok(imports.includes('../http/httpGuards.ts'));
    assert.deepEqual(
      imports.filter((path) => path.includes('/mcp/')),
      [],
    );
  });
});
