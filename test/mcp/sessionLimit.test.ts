import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'node:http';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createMcpHttpEndpoint, MAX_OPEN_SESSIONS } from '../../src/mcp/mcpHttpEndpoint.ts';
import { initializeBody, postMcp, type McpHttpAnswer } from '../support/mcpHttpPost.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const TOKEN = 'test-token-0123456789abcdef0123456789abcdef';
const LIMIT = 3;

/** Kept-alive connections: the default limit's test opens ten thousand sessions. */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

async function open(port: number): Promise<string> {
  const answer = await postMcp(port, initializeBody('limit'), { token: TOKEN, agent });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(answer.session);
  return answer.session;
}

const list = (port: number, session: string): Promise<McpHttpAnswer> =>
  postMcp(port, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { sessionId: session, token: TOKEN, agent });

describe(`open MCP sessions over HTTP are bounded (default ${MAX_OPEN_SESSIONS}), least recently used closed first`, () => {
  let test: TestCore;
  let server: RunningHttpServer;

  before(async () => {
    test = await createTestCore();
    server = await startHttpServer({ core: test.core }, { port: 0, token: TOKEN, maxSessions: LIMIT });
  });
  after(async () => {
    await server.close();
    await test.cleanup();
  });

  it('keeps every session up to the limit, then closes the one used longest ago: its client is told to initialize again', async () => {
    const first = await open(server.port);
    const second = await open(server.port);
    const third = await open(server.port);
    // At the limit exactly: all three answer.
    for (const session of [first, second, third]) assert.equal((await list(server.port, session)).status, 200);
    // The first is used again, so the second is now the one used longest ago.
    assert.equal((await list(server.port, first)).status, 200);
    const fourth = await open(server.port);
    const evicted = await list(server.port, second);
    assert.equal(evicted.status, 404, evicted.text);
    assert.match(evicted.text, /initialize again/);
    for (const session of [first, third, fourth]) assert.equal((await list(server.port, session)).status, 200);
    // Its client initializes again and carries on; the session used longest ago (now the first) goes in its place.
    const again = await open(server.port);
    assert.equal((await list(server.port, again)).status, 200);
    assert.equal((await list(server.port, first)).status, 404);
    for (const session of [third, fourth]) assert.equal((await list(server.port, session)).status, 200);
  });

  it('refuses a limit that is not a positive whole number', () => {
    for (const maxSessions of [0, -1, 1.5, Number.NaN])
      assert.throws(
        () => createMcpHttpEndpoint({ core: test.core }, { maxSessions }),
        (error: unknown) => (error as { code?: string }).code === 'CONFIGURATION_ERROR',
      );
  });
});

describe('the default limit of open MCP sessions', () => {
  let test: TestCore;
  let server: RunningHttpServer;

  before(async () => {
    test = await createTestCore();
    server = await startHttpServer(
      { core: test.core },
      { port: 0, token: TOKEN, rateLimit: { perMinute: 0, burst: 0 } },
    );
  });
  after(async () => {
    agent.destroy();
    await server.close();
    await test.cleanup();
  });

  it(`is ${MAX_OPEN_SESSIONS.toLocaleString('en')}: every session lives while that many are open, and the next closes the one used longest ago`, async () => {
    assert.equal(MAX_OPEN_SESSIONS, 10_000, 'docs/mcp.md names 10,000');
    const first = await open(server.port);
    const second = await open(server.port);
    for (let opened = 2; opened < MAX_OPEN_SESSIONS;) {
      const batch = Math.min(64, MAX_OPEN_SESSIONS - opened);
      await Promise.all(Array.from({ length: batch }, () => open(server.port)));
      opened += batch;
    }
    // At the limit the first-opened still answers (one fewer kept would have closed it)...
    assert.equal((await list(server.port, first)).status, 200, 'at the limit every session is kept');
    // ...and, used just now, it is no longer the one used longest ago: the second-opened is, and goes.
    await open(server.port);
    assert.equal((await list(server.port, second)).status, 404, 'one past the limit closes a session');
    assert.equal((await list(server.port, first)).status, 200);
  });
});
