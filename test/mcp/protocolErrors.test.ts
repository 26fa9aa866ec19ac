import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const TOKEN = 'test-token-0123456789abcdef0123456789abcdef';

interface RpcAnswer {
  jsonrpc: string;
  id: string | number | null;
  result?: { tools?: Array<{ name: string }> };
  error?: { code: number; message: string; data?: { code?: string } };
}

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw JSON-RPC client on the stdin/stdout of `fml serve --stdio`: lines in, lines out, nothing checked for us. */
class RawStdioClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers: RpcAnswer[] = [];
  private waiting: (() => void) | null = null;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [cli, 'serve', '--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.resume();
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.answers.push(JSON.parse(line) as RpcAnswer);
      this.waiting?.();
    });
  }

  /** Sends one raw line and waits for the next answer. */
  async exchange(line: string): Promise<RpcAnswer> {
    const before = this.answers.length;
    this.child.stdin.write(`${line}\n`);
    while (this.answers.length === before) await new Promise<void>((resolve) => (this.waiting = resolve));
    return this.answers[before]!;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** What every check below expects of a protocol error: JSON-RPC 2.0, the code, a sentence (no schema dump). */
function assertRpcError(answer: RpcAnswer, code: number, id: string | number | null): void {
  assert.equal(answer.jsonrpc, '2.0');
  assert.equal(answer.id, id);
  assert.equal(answer.error?.code, code, JSON.stringify(answer));
  assert.ok(
    !/invalid_type|"path"|ZodError|expected":/.test(answer.error!.message),
    `readable message: ${answer.error!.message}`,
  );
}

describe('protocol errors over stdio (raw client on the built CLI)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-rpc-'));
  let client: RawStdioClient;
  before(async () => {
    client = new RawStdioClient(['--data-dir', dataDir]);
    assert.ok((await client.exchange(JSON.stringify(initialize))).result);
    client['child'].stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  });
  after(async () => {
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers an unparsable line with -32700 and id null', async () => {
    assertRpcError(await client.exchange('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"'), -32700, null);
  });

  it('answers a request without a method with -32600, naming its id', async () => {
    assertRpcError(await client.exchange(JSON.stringify({ jsonrpc: '2.0', id: 7, params: {} })), -32600, 7);
    assertRpcError(await client.exchange(JSON.stringify([{ jsonrpc: '2.0', id: 8, method: 'ping' }])), -32600, null);
  });

  it('answers an unknown tool with -32602, not a tool result', async () => {
    const answer = await client.exchange(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'u',
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: {} },
      }),
    );
    assertRpcError(answer, -32602, 'u');
    assert.equal(answer.result, undefined);
  });

  it('answers arguments that are not an object with -32602 and a readable message', async () => {
    for (const [id, args] of [
      [10, 'recall everything'],
      [11, [1, 2]],
      [12, null],
    ] as const) {
      const answer = await client.exchange(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'recall_memories', arguments: args },
        }),
      );
      assertRpcError(answer, -32602, id);
      assert.match(answer.error!.message, /arguments must be an object/);
    }
  });

  it('answers an unknown resource with -32002', async () => {
    assertRpcError(
      await client.exchange(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 20,
          method: 'resources/read',
          params: { uri: 'memory://nobody/nothing' },
        }),
      ),
      -32002,
      20,
    );
    assertRpcError(
      await client.exchange(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 21,
          method: 'resources/read',
          params: { uri: 'memory://sess_missing/info' },
        }),
      ),
      -32002,
      21,
    );
  });

  it('keeps serving after bad lines', async () => {
    const listed = await client.exchange(JSON.stringify({ jsonrpc: '2.0', id: 30, method: 'tools/list' }));
    assert.ok(listed.result?.tools?.some((tool) => tool.name === 'recall_memories'));
    assert.ok(!listed.result?.tools?.some((tool) => tool.name === 'get_memory_analytics'), 'admin tools are opt-in');
  });
});

describe('the --admin-tools flag', () => {
  it('adds the lifecycle and administration tools to the stdio server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fml-rpc-admin-'));
    const client = new RawStdioClient(['--data-dir', dataDir, '--admin-tools']);
    try {
      await client.exchange(JSON.stringify(initialize));
      const listed = await client.exchange(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      for (const name of [
        'get_memory_analytics',
        'memory_quality_report',
        'promote_memory',
        'export_memories',
        'link_memories',
      ])
        assert.ok(
          listed.result?.tools?.some((tool) => tool.name === name),
          name,
        );
    } finally {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

function post(
  port: number,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; answer: RpcAnswer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${TOKEN}`,
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, answer: JSON.parse(text) as RpcAnswer, headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('protocol errors over HTTP (raw client)', () => {
  let test: TestCore;
  let server: RunningHttpServer;
  let session: Record<string, string>;
  before(async () => {
    test = await createTestCore();
    server = await startHttpServer({ core: test.core }, { port: 0, token: TOKEN });
    const opened = await post(server.port, JSON.stringify(initialize));
    session = { 'Mcp-Session-Id': String(opened.headers['mcp-session-id']), 'MCP-Protocol-Version': '2025-11-25' };
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('answers an unknown tool and non-object arguments with -32602', async () => {
    assertRpcError(
      (
        await post(
          server.port,
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool' } }),
          session,
        )
      ).answer,
      -32602,
      1,
    );
    const bad = await post(
      server.port,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'store_memory', arguments: 'remember this' },
      }),
      session,
    );
    assertRpcError(bad.answer, -32602, 2);
    assert.match(bad.answer.error!.message, /arguments must be an object/);
  });

  it('answers an unknown resource with -32002', async () => {
    assertRpcError(
      (
        await post(
          server.port,
          JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///etc/passwd' } }),
          session,
        )
      ).answer,
      -32002,
      3,
    );
  });

  it('gives every HTTP error on /mcp a JSON-RPC error body', async () => {
    const unparsable = await post(server.port, '{"jsonrpc":', session);
    assert.equal(unparsable.status, 400);
    assertRpcError(unparsable.answer, -32700, null);
    const noToken = await post(server.port, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }), {
      ...session,
      Authorization: 'Bearer wrong',
    });
    assert.equal(noToken.status, 401);
    assert.equal(noToken.answer.jsonrpc, '2.0');
    assert.equal(noToken.answer.error?.data?.code, 'UNAUTHORIZED');
    const notInitialize = await post(server.port, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    assert.equal(notInitialize.status, 400);
    assertRpcError(notInitialize.answer, -32600, 5);
    const goneSession = await post(server.port, JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }), {
      'Mcp-Session-Id': 'not-a-session',
    });
    assert.equal(goneSession.status, 404);
    assert.equal(goneSession.answer.error?.data?.code, 'SESSION_NOT_FOUND');
    const foreign = await post(server.port, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }), {
      ...session,
      Origin: 'http://evil.example',
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.answer.error?.data?.code, 'FORBIDDEN');
  });
});
