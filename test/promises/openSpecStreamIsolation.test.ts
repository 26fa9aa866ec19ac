import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/mcp.md, "OpenSpec knowledge provider": the change stream carries changes of the entries the
 * caller may read, nothing of another user's. Every kind of change another user makes (create,
 * edit, forget, erase, forget everything) is made while alice listens; the first event alice gets
 * after them must be her own change, and her own forget-everything reaches her (so the stream is
 * not simply silent).
 */
const TOKEN = 'openspec-stream-token-0123456789abcdef0123456789';
const STREAM = '/openspec/v1/knowledge/stream?userId=alice';

type Event = { event: string; data: string };
function openStream(base: string, path: string): { next(): Promise<Event>; close(): void } {
  const queued: Event[] = [];
  const waiting: Array<(event: Event) => void> = [];
  let buffer = '';
  const request = httpRequest(
    `${base}${path}`,
    { headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'text/event-stream' } },
    (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
          const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length);
          if (!event || !data) continue;
          const waiter = waiting.shift();
          if (waiter) waiter({ event, data });
          else queued.push({ event, data });
        }
      });
    },
  );
  request.end();
  return {
    next: () =>
      queued.length > 0 ? Promise.resolve(queued.shift()!) : new Promise((resolve) => waiting.push(resolve)),
    close: () => request.destroy(),
  };
}

describe('the OpenSpec change stream carries nothing of another user’s changes', () => {
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

  it('bob’s creates, edits, forgets, erasures and forget-all never reach alice’s stream; her own do', async () => {
    const events = openStream(server.url, STREAM);
    try {
      assert.equal((await events.next()).event, 'ready');
      const store = (user: string, content: string) =>
        test.core.storeMemory({ user_id: user, content, memory_category: 'semantic', memory_subtype: 'project' });
      const bobs = await store('bob', 'Bob keeps the falcon release notes.');
      const other = await store('bob', 'Bob erases this falcon memory.');
      await test.core.updateMemory({
        user_id: 'bob',
        memory_id: bobs.memory_id,
        content: 'Bob edited the falcon notes.',
      });
      await test.core.forgetMemory({ user_id: 'bob', memory_id: bobs.memory_id });
      await test.core.forgetMemory({ user_id: 'bob', memory_id: other.memory_id, hard_delete: true });
      await test.core.forgetAllMemories({ user_id: 'bob', confirmation: 'CONFIRM_DELETE_ALL' });
      const own = await store('alice', 'Alice writes her own falcon note.');
      const first = await events.next();
      assert.deepEqual(
        [first.event, JSON.parse(first.data).change, JSON.parse(first.data).ids],
        ['change', 'created', [own.memory_id]],
        `the first event after bob's changes: ${first.data}`,
      );
      await test.core.forgetAllMemories({ user_id: 'alice', confirmation: 'CONFIRM_DELETE_ALL' });
      assert.equal(JSON.parse((await events.next()).data).change, 'cleared', 'alice hears her own forget-all');
    } finally {
      events.close();
    }
  });
});
