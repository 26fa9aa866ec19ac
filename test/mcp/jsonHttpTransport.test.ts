import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { JsonHttpTransport } from '../../src/mcp/jsonHttpTransport.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const TOKEN = 'json-transport-token-0123456789abcdef012345';
const VERSION = '2025-06-18';

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(
  port: number,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...options.headers,
    };
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'POST', path: '/mcp', headers, timeout: 10_000 },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)));
  });
}

const initialize = (id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'json-transport-test', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('JSON HTTP transport behind the MCP endpoint', () => {
  let test: TestCore;
  let server: RunningHttpServer;
  const auth = { Authorization: `Bearer ${TOKEN}` };

  async function openSession(): Promise<{ id: string; headers: Record<string, string> }> {
    const init = await send(server.port, { headers: auth, body: initialize() });
    assert.equal(init.status, 200, init.body);
    const id = String(init.headers['mcp-session-id']);
    const headers = { ...auth, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': VERSION };
    assert.equal((await send(server.port, { headers, body: initialized })).status, 202);
    return { id, headers };
  }

  before(async () => {
    test = await createTestCore();
    server = await startHttpServer(
      { core: test.core },
      { port: 0, token: TOKEN, rateLimit: { perMinute: 6000, burst: 200 } },
    );
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('serves the SDK client (StreamableHTTPClientTransport) end to end, including ending the session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), { requestInit: { headers: auth } });
    const client = new Client({ name: 'sdk-over-json', version: '1' });
    await client.connect(transport);
    assert.ok(transport.sessionId, 'the client learned the session id');
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'store_memory'));
    const stored = await client.callTool({
      name: 'store_memory',
      arguments: {
        user_id: 'sdk',
        content: 'The JSON transport answers the SDK client',
        memory_category: 'semantic',
        memory_subtype: 'project',
      },
    });
    assert.equal(stored.isError, undefined);
    assert.match(String((stored.structuredContent as { memory_id: string }).memory_id), /^mem/);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await send(server.port, {
      headers: { ...auth, 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': VERSION },
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} },
    });
    assert.equal(after.status, 404, 'the ended session is gone');
    await client.close();
  });

  it('answers initialize with one application/json body (no SSE framing) and a session id', async () => {
    const init = await send(server.port, { headers: auth, body: initialize(7) });
    assert.equal(init.status, 200);
    assert.match(String(init.headers['content-type']), /^application\/json/);
    assert.match(String(init.headers['mcp-session-id']), /^[0-9a-f-]{36}$/);
    assert.ok(!init.body.startsWith('event:') && !init.body.includes('data:'), init.body.slice(0, 80));
    const message = JSON.parse(init.body) as {
      id: number;
      result: { protocolVersion: string; serverInfo: { name: string } };
    };
    assert.equal(message.id, 7);
    assert.equal(message.result.protocolVersion, VERSION);
    assert.equal(message.result.serverInfo.name, 'firebolt-memory-layer');
  });

  it('accepts notifications with 202 and no body, and answers a tool call with its session header', async () => {
    const { id, headers } = await openSession();
    const call = await send(server.port, {
      headers,
      body: {
        jsonrpc: '2.0',
        id: 'call-1',
        method: 'tools/call',
        params: { name: 'init_session', arguments: { user_id: 'json-u' } },
      },
    });
    assert.equal(call.status, 200);
    assert.equal(call.headers['mcp-session-id'], id);
    assert.equal(Number(call.headers['content-length']), Buffer.byteLength(call.body));
    const answer = JSON.parse(call.body) as { id: string; result: { structuredContent: { session_id: string } } };
    assert.equal(answer.id, 'call-1');
    assert.match(answer.result.structuredContent.session_id, /\S/);
    const note = await send(server.port, {
      headers,
      body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nothing-pending' } },
    });
    assert.equal(note.status, 202);
    assert.equal(note.body, '');
  });

  it('answers a batch with an array of the answers in request order, notifications left out', async () => {
    const { headers } = await openSession();
    const batch = await send(server.port, {
      headers,
      body: [
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_facts', arguments: { user_id: 'batch' } } },
        { jsonrpc: '2.0', id: 4, method: 'no/such/method', params: {} },
      ],
    });
    assert.equal(batch.status, 200);
    const answers = JSON.parse(batch.body) as Array<{
      id: number;
      result?: { tools?: unknown[] };
      error?: { code: number };
    }>;
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [2, 3, 4],
    );
    assert.ok((answers[0].result?.tools?.length ?? 0) > 10);
    assert.equal(answers[2].error?.code, -32601, 'an unknown method is a JSON-RPC error inside the batch');
    const single = await send(server.port, { headers, body: [{ jsonrpc: '2.0', id: 5, method: 'ping' }] });
    assert.ok(Array.isArray(JSON.parse(single.body)), 'a batch of one is answered with an array of one');
    const onlyNotes = await send(server.port, {
      headers,
      body: [initialized, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }],
    });
    assert.equal(onlyNotes.status, 202);
  });

  it('ends a session on DELETE; the id is then unknown for POST and DELETE', async () => {
    const { headers } = await openSession();
    assert.equal((await send(server.port, { method: 'DELETE', headers })).status, 200);
    const post = await send(server.port, { headers, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    assert.equal(post.status, 404);
    assert.equal(JSON.parse(post.body).error.data.code, 'SESSION_NOT_FOUND');
    assert.equal((await send(server.port, { method: 'DELETE', headers })).status, 404);
  });

  it('answers GET with 405 and Allow, as a server without a server-to-client stream', async () => {
    const { headers } = await openSession();
    const get = await send(server.port, { method: 'GET', headers: { ...headers, Accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST, DELETE');
  });

  it('checks the protocol version header, a second initialize, unknown sessions and malformed messages', async () => {
    const { headers } = await openSession();
    const ping = { jsonrpc: '2.0', id: 11, method: 'ping' };
    const badVersion = await send(server.port, {
      headers: { ...headers, 'MCP-Protocol-Version': '1999-01-01' },
      body: ping,
    });
    assert.equal(badVersion.status, 400);
    assert.match(JSON.parse(badVersion.body).error.message, /Unsupported MCP protocol version "1999-01-01"/);
    assert.equal(
      (await send(server.port, { headers: { ...headers, 'MCP-Protocol-Version': '2025-03-26' }, body: ping })).status,
      200,
    );
    const { 'MCP-Protocol-Version': _omitted, ...withoutVersion } = headers;
    assert.equal(
      (await send(server.port, { headers: withoutVersion, body: ping })).status,
      200,
      'no version header: the negotiated default is assumed',
    );

    const again = await send(server.port, { headers, body: initialize(12) });
    assert.equal(again.status, 400);
    assert.equal(JSON.parse(again.body).error.code, -32600);

    const unknown = await send(server.port, {
      headers: { ...headers, 'Mcp-Session-Id': '00000000-0000-0000-0000-000000000000' },
      body: ping,
    });
    assert.equal(unknown.status, 404);

    const malformed = await send(server.port, { headers, body: { jsonrpc: '1.0', id: 1, method: 'ping' } });
    assert.equal(malformed.status, 400);
    const error = JSON.parse(malformed.body) as { id: null; error: { code: number; data: { code: string } } };
    assert.equal(error.error.code, -32600);
    assert.equal(error.error.data.code, 'INVALID_INPUT');
    assert.equal(error.id, null);
    assert.equal((await send(server.port, { headers, body: [] })).status, 400, 'an empty batch');
    assert.equal(
      (
        await send(server.port, {
          headers,
          body: Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
        })
      ).status,
      400,
      'a batch over 100',
    );
  });

  it('refuses a wrong Content-Type with 415 and an Accept without JSON with 406', async () => {
    const { headers } = await openSession();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    assert.equal(
      (await send(server.port, { headers: { ...headers, 'Content-Type': 'text/plain' }, body: ping })).status,
      415,
    );
    assert.equal((await send(server.port, { headers: { ...headers, Accept: 'text/html' }, body: ping })).status, 406);
    assert.equal((await send(server.port, { headers: { ...headers, Accept: '*/*' }, body: ping })).status, 200);
  });

  it('keeps the guards in front of every session: a wrong token is 401 even with a live session id', async () => {
    const { headers } = await openSession();
    const refused = await send(server.port, {
      headers: { ...headers, Authorization: 'Bearer wrong' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.body).error.data.code, 'UNAUTHORIZED');
  });
});

/**
 * The transport alone on a bare HTTP server, with a scripted protocol side: what happens to
 * requests that are answered late, never, cancelled, or outlive their session.
 */
describe('JSON HTTP transport on its own', () => {
  let http: Server;
  let port: number;
  let transport: JsonHttpTransport;
  const received: JSONRPCMessage[] = [];
  const initializedSessions: string[] = [];

  before(async () => {
    transport = new JsonHttpTransport({ onsessioninitialized: (id) => initializedSessions.push(id) });
    transport.onmessage = (message) => {
      received.push(message);
      // Answer initialize at once; other requests are answered by each test.
      if ('method' in message && message.method === 'initialize' && 'id' in message) {
        void transport.send({
          jsonrpc: '2.0',
          id: message.id,
          result: { protocolVersion: VERSION, capabilities: {}, serverInfo: { name: 'echo-server', version: '1' } },
        });
      }
    };
    await transport.start();
    http = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        if (req.method === 'DELETE') void transport.handleDelete(req, res);
        else transport.handlePost(req, res, raw ? JSON.parse(raw) : undefined);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  const sessionHeaders = () => ({ 'Mcp-Session-Id': transport.sessionId!, 'MCP-Protocol-Version': VERSION });
  // Waits for the reply with this id; the 30 s bound only keeps a lost reply from hanging the run
  // (the old bound, 200 polls of 5 ms, could run out on a busy machine and fail the next assertion).
  const nextReceived = async (id: number | string): Promise<void> => {
    const deadline = Date.now() + 30_000;
    while (!received.some((message) => 'id' in message && message.id === id)) {
      if (Date.now() > deadline) throw new Error(`no reply with id ${String(id)} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('refuses requests before initialize, then initializes once and reports the session', async () => {
    const early = await send(port, { body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    assert.equal(early.status, 400);
    assert.match(JSON.parse(early.body).error.message, /not initialized/);
    const batchedInit = await send(port, { body: [initialize(1), { jsonrpc: '2.0', id: 2, method: 'ping' }] });
    assert.equal(batchedInit.status, 400, 'initialize must come alone');
    assert.equal(transport.sessionId, undefined);
    const init = await send(port, { body: initialize(1) });
    assert.equal(init.status, 200);
    assert.deepEqual(initializedSessions, [transport.sessionId]);
    assert.equal(init.headers['mcp-session-id'], transport.sessionId);
  });

  it('holds a POST until every request in it is answered, whatever the order', async () => {
    const reply = send(port, {
      headers: sessionHeaders(),
      body: [
        { jsonrpc: '2.0', id: 20, method: 'a' },
        { jsonrpc: '2.0', id: 21, method: 'b' },
      ],
    });
    await nextReceived(21);
    await transport.send({ jsonrpc: '2.0', id: 21, result: { which: 'b' } });
    await transport.send({ jsonrpc: '2.0', id: 20, result: { which: 'a' } });
    const answers = JSON.parse((await reply).body) as Array<{ id: number; result: { which: string } }>;
    assert.deepEqual(
      answers.map((answer) => [answer.id, answer.result.which]),
      [
        [20, 'a'],
        [21, 'b'],
      ],
    );
  });

  it('refuses a request id that is already in flight in the session', async () => {
    const first = send(port, { headers: sessionHeaders(), body: { jsonrpc: '2.0', id: 30, method: 'slow' } });
    await nextReceived(30);
    const duplicate = await send(port, { headers: sessionHeaders(), body: { jsonrpc: '2.0', id: 30, method: 'slow' } });
    assert.equal(duplicate.status, 400);
    assert.match(JSON.parse(duplicate.body).error.message, /already in flight/);
    await transport.send({ jsonrpc: '2.0', id: 30, result: {} });
    assert.equal((await first).status, 200);
  });

  it('answers a request the client cancels, since the protocol layer never will', async () => {
    const pending = send(port, { headers: sessionHeaders(), body: { jsonrpc: '2.0', id: 40, method: 'slow' } });
    await nextReceived(40);
    const cancel = await send(port, {
      headers: sessionHeaders(),
      body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 40, reason: 'user' } },
    });
    assert.equal(cancel.status, 202);
    const answer = JSON.parse((await pending).body) as { id: number; error: { message: string } };
    assert.equal(answer.id, 40);
    assert.match(answer.error.message, /cancelled/);
  });

  it('refuses to send a server-to-client request, drops notifications, and reports an answer nobody asked for', async () => {
    await assert.rejects(
      transport.send({ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: {} }),
      /without a server-to-client stream/,
    );
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    await assert.rejects(
      transport.send({ jsonrpc: '2.0', id: 999, result: {} }),
      (error: Error & { code?: string }) => error.code === 'PROVIDER_ERROR',
    );
  });

  it('drops the late answer of a client that hung up, frees its request id, and keeps the session serving', async () => {
    const gone = new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: { 'Content-Type': 'application/json', ...sessionHeaders() },
      });
      // The client's socket closing is the event the test waits for, not a delay.
      req.on('close', () => resolve());
      req.on('error', (error: NodeJS.ErrnoException) => assert.equal(error.code, 'ECONNRESET'));
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'slow' }));
      void nextReceived(50).then(() => req.destroy());
    });
    await gone;
    await transport.send({ jsonrpc: '2.0', id: 50, result: {} });
    await assert.rejects(
      transport.send({ jsonrpc: '2.0', id: 50, result: {} }),
      (error: Error & { code?: string }) => error.code === 'PROVIDER_ERROR',
      'the id was answered once and is no longer pending',
    );
    const next = send(port, { headers: sessionHeaders(), body: { jsonrpc: '2.0', id: 51, method: 'slow' } });
    await nextReceived(51);
    await transport.send({ jsonrpc: '2.0', id: 51, result: { still: 'serving' } });
    const answer = await next;
    assert.equal(answer.status, 200);
    assert.deepEqual((JSON.parse(answer.body) as { result: unknown }).result, { still: 'serving' });
  });

  it('answers requests still running when the session ends on DELETE, then refuses the session', async () => {
    const running = send(port, { headers: sessionHeaders(), body: { jsonrpc: '2.0', id: 60, method: 'slow' } });
    await nextReceived(60);
    let closed = 0;
    transport.onclose = () => closed++;
    const headers = sessionHeaders();
    assert.equal((await send(port, { method: 'DELETE', headers })).status, 200);
    const answer = JSON.parse((await running).body) as { id: number; error: { message: string } };
    assert.equal(answer.id, 60);
    assert.match(answer.error.message, /closed while this request ran/);
    assert.equal(closed, 1);
    assert.equal((await send(port, { headers, body: { jsonrpc: '2.0', id: 61, method: 'ping' } })).status, 404);
    await transport.send({ jsonrpc: '2.0', id: 60, result: {} });
  });
});
