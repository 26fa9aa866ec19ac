import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { onceBody } from '../../src/http/requestBody.ts';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from '../../src/mcp/mcpHttpEndpoint.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/*
 * An open MCP session keeps its server and transport, never the HTTP request that opened it: the
 * session's callbacks were once made in the request handler's scope and held the initialize
 * request, its response and its body for the session's life (2,000 sessions held 2,000 requests
 * in a heap snapshot of `npm run bench:load`).
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const BODY_LIMIT = 1 << 20;

/** One POST on a connection of its own (closed after the answer), so no socket keeps the request either. */
function post(
  port: number,
  body: unknown,
  sessionId?: string,
): Promise<{ status: number; session?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Connection: 'close',
          ...(sessionId === undefined ? {} : { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-06-18' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const session = res.headers['mcp-session-id'];
          resolve({ status: res.statusCode ?? 0, session: typeof session === 'string' ? session : undefined, text });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('MCP HTTP sessions and the requests that opened them', () => {
  let test: TestCore;
  let endpoint: McpHttpEndpoint;
  let server: Server;
  let port: number;
  const seen: Array<WeakRef<IncomingMessage>> = [];

  before(async () => {
    test = await createTestCore();
    endpoint = createMcpHttpEndpoint({ core: test.core });
    server = createServer((req, res) => {
      seen.push(new WeakRef(req));
      void endpoint.handle(req, res, onceBody(req, BODY_LIMIT));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await endpoint.close();
    await new Promise((resolve) => server.close(resolve));
    await test.cleanup();
  });

  it('lets the initialize request go once it is answered, while the session lives on', async () => {
    const opened = await post(port, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'retention', version: '1' } },
    });
    assert.equal(opened.status, 200, opened.text);
    assert.ok(opened.session, 'the session has an id');
    const initializeRequest = seen[0];
    // Let the closed connection's callbacks run, then collect twice (weak references clear on the second).
    await new Promise((resolve) => setTimeout(resolve, 50));
    collect();
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    assert.equal(initializeRequest.deref(), undefined, 'the open session still holds the initialize request');
    // The session itself was not collected with it.
    const listed = await post(port, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, opened.session);
    assert.equal(listed.status, 200, listed.text);
    assert.match(listed.text, /recall_memories/);
  });
});
