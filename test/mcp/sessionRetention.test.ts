import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { onceBody } from '../../src/http/requestBody.ts';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from '../../src/mcp/mcpHttpEndpoint.ts';
import { initializeBody, postMcp } from '../support/mcpHttpPost.ts';
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
    // A connection of its own, closed after the answer: no socket keeps the request either.
    const opened = await postMcp(port, initializeBody('retention'));
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
    const listed = await postMcp(port, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { sessionId: opened.session });
    assert.equal(listed.status, 200, listed.text);
    assert.match(listed.text, /recall_memories/);
  });
});
