import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, createMcpSession } from '../../src/mcp/createMcpServer.ts';
import { JsonHttpTransport } from '../../src/mcp/jsonHttpTransport.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * The HTTP transport runs plain tools/call requests itself (without the SDK's protocol layer, which
 * costs more than the dispatch). What must hold: the client cannot tell, byte for byte, and every
 * message that layer does something for (`_meta`, `task`, other methods) still goes to it.
 */
const VERSION = '2025-06-18';

/** One transport behind a bare HTTP server, as the MCP endpoint hands it its POSTs. */
async function serve(transport: JsonHttpTransport): Promise<{ port: number; http: Server }> {
  const http = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => transport.handlePost(req, res, raw ? JSON.parse(raw) : undefined));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { port: (http.address() as AddressInfo).port, http };
}

function post(port: number, body: unknown, sessionId?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (sessionId !== undefined)
      Object.assign(headers, { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': VERSION });
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'direct-calls-test', version: '1' } },
};

describe('plain tool calls over the JSON HTTP transport', () => {
  let test: TestCore;
  const servers: Server[] = [];
  before(async () => {
    test = await createTestCore();
  });
  after(async () => {
    for (const http of servers) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
    await test.cleanup();
  });

  async function open(direct: boolean): Promise<{ port: number; sessionId: string; transport: JsonHttpTransport }> {
    const session = createMcpSession({ core: test.core });
    const transport = new JsonHttpTransport(direct ? { toolCalls: session.callTool } : {});
    await (direct ? session.server : createMcpServer({ core: test.core })).connect(transport);
    const { port, http } = await serve(transport);
    servers.push(http);
    assert.equal((await post(port, initialize)).status, 200);
    return { port, sessionId: transport.sessionId!, transport };
  }

  /** What a bare transport's protocol side does by default: answers initialize, nothing else. */
  const answerInitialize = (message: JSONRPCMessage, transport: JsonHttpTransport): void => {
    if ('method' in message && message.method === 'initialize' && 'id' in message)
      void transport.send({ jsonrpc: '2.0', id: message.id, result: {} });
  };

  /** A transport running tool calls through `toolCalls`, without an MCP server: `protocol` gets what reaches the protocol side. */
  async function openBare(
    toolCalls: (params: unknown) => Promise<unknown>,
    protocol: (message: JSONRPCMessage, transport: JsonHttpTransport) => void = answerInitialize,
  ): Promise<{ port: number; sessionId: string; transport: JsonHttpTransport }> {
    const transport = new JsonHttpTransport({ toolCalls });
    transport.onmessage = (message) => protocol(message, transport);
    await transport.start();
    const { port, http } = await serve(transport);
    servers.push(http);
    await post(port, initialize);
    return { port, sessionId: transport.sessionId!, transport };
  }

  it('are answered byte for byte as the SDK protocol layer answers them: results, tool errors, protocol errors', async () => {
    const direct = await open(true);
    const throughSdk = await open(false);
    const calls: unknown[] = [
      { name: 'recall_memories', arguments: { user_id: 'direct', query: 'nothing stored yet' } },
      { name: 'get_facts', arguments: { user_id: 'direct' } },
      { name: 'recall_memories', arguments: { user_id: 'direct', query: 'x', limit: 1000 } },
      { name: 'no_such_tool', arguments: {} },
      { name: 'recall_memories', arguments: ['not', 'an', 'object'] },
      { arguments: {} },
    ];
    for (const [index, params] of calls.entries()) {
      const message = { jsonrpc: '2.0', id: `call-${index}`, method: 'tools/call', params };
      const fast = await post(direct.port, message, direct.sessionId);
      const sdk = await post(throughSdk.port, message, throughSdk.sessionId);
      assert.equal(fast.status, sdk.status, JSON.stringify(params));
      assert.equal(fast.body, sdk.body, JSON.stringify(params));
    }
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_facts', arguments: { user_id: 'b' } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool' } },
    ];
    assert.equal(
      (await post(direct.port, batch, direct.sessionId)).body,
      (await post(throughSdk.port, batch, throughSdk.sessionId)).body,
    );
  });

  it('leave calls with _meta or task, and every other method, to the protocol layer', async () => {
    const run: unknown[] = [];
    const delivered: JSONRPCMessage[] = [];
    const { port, sessionId } = await openBare(
      async (params) => {
        run.push(params);
        return { content: [] };
      },
      (message, transport) => {
        delivered.push(message);
        if ('id' in message && 'method' in message)
          void transport.send({ jsonrpc: '2.0', id: message.id, result: { via: 'protocol' } });
      },
    );
    const call = (id: number, params: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params,
    });
    const plain = JSON.parse((await post(port, call(1, { name: 't', arguments: {} }), sessionId)).body);
    assert.deepEqual(plain, { result: { content: [] }, jsonrpc: '2.0', id: 1 });
    await post(port, call(2, { name: 't', _meta: { progressToken: 7 } }), sessionId);
    await post(port, call(3, { name: 't', task: { ttl: 1000 } }), sessionId);
    await post(port, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, sessionId);
    assert.deepEqual(run, [{ name: 't', arguments: {} }]);
    assert.deepEqual(
      delivered.map((message) => ('id' in message ? message.id : null)),
      [0, 2, 3, 4],
    );
  });

  it('turn a thrown error into its code, message and data, or an internal error without a code', async () => {
    const failures: unknown[] = [
      Object.assign(new Error('bad params'), { code: -32602, data: { field: 'name' } }),
      new Error('no code'),
      'a string',
    ];
    const { port, sessionId } = await openBare(async () => {
      throw failures.shift();
    });
    const answers = [];
    for (let id = 1; id <= 3; id++)
      answers.push(
        JSON.parse(
          (await post(port, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } }, sessionId)).body,
        ),
      );
    assert.deepEqual(answers, [
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params', data: { field: 'name' } } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'no code' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } },
    ]);
  });

  it('drop the late answer of a call the client cancelled, and reuse its id for the next call', async () => {
    let finish: (() => void) | undefined;
    const errors: Error[] = [];
    let calls = 0;
    const { port, sessionId, transport } = await openBare((params) => {
      calls++;
      if (calls > 1) return Promise.resolve({ second: params });
      return new Promise((resolve) => (finish = () => resolve({ late: true })));
    });
    transport.onerror = (error) => errors.push(error);
    const slow = post(port, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow' } }, sessionId);
    while (finish === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const cancel = await post(
      port,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } },
      sessionId,
    );
    assert.equal(cancel.status, 202);
    assert.match(JSON.parse((await slow).body).error.message, /cancelled/);
    const next = post(port, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'fast' } }, sessionId);
    finish();
    assert.deepEqual(JSON.parse((await next).body).result, { second: { name: 'fast' } });
    assert.deepEqual(errors, [], 'the late answer is dropped, not reported as unasked');
  });
});
