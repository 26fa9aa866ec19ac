import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const TOKEN = 'openspec-token-0123456789abcdef0123456789abcdef';
const BASE = '/openspec/v1/knowledge';

interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}
type ErrorBody = { error: { code: string; message: string; operation?: string; retryable: boolean } };
type Entry = {
  id: string;
  content: string;
  layer: string;
  identifiers: Record<string, string>;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
};

/** seed 001 OpenSpec endpoints over plain HTTP (fetch), asserted on the store behind them. */
describe('OpenSpec knowledge provider over HTTP', () => {
  let t: TestCore;
  let server: RunningHttpServer;
  const call = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    token = TOKEN,
  ): Promise<Reply<T>> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const create = async (content: string, extra: Record<string, unknown> = {}) => {
    const reply = await call<{ memory: Entry; embeddingGenerated: boolean }>('POST', `${BASE}/create`, {
      content,
      layer: 'user',
      identifiers: { userId: 'osu' },
      ...extra,
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.memory;
  };

  before(async () => {
    t = await createTestCore();
    server = await startHttpServer({ core: t.core }, { port: 0, token: TOKEN });
  });
  after(async () => {
    await server.close();
    await t.cleanup();
  });

  it('refuses every route without the token', async () => {
    for (const [method, path] of [
      ['GET', BASE],
      ['POST', `${BASE}/query`],
      ['POST', `${BASE}/create`],
      ['GET', `${BASE}/stream`],
      ['GET', `${BASE}/mem_x/metadata`],
    ] as const) {
      const reply = await call<ErrorBody>(
        method,
        path,
        method === 'POST' ? {} : undefined,
        'wrong-token-wrong-token-wrong-token-wrong-t',
      );
      assert.equal(reply.status, 401, `${method} ${path}`);
      assert.equal(reply.body.error.code, 'UNAUTHORIZED');
    }
  });

  it('describes the provider on discovery', async () => {
    const reply = await call<{
      layers: string[];
      layerRequirements: Record<string, string[]>;
      endpoints: Record<string, string>;
      capabilities: { batch: { maxOperations: number } };
    }>('GET', BASE);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.layers, ['agent', 'user', 'session', 'project', 'team', 'org', 'company']);
    assert.deepEqual(reply.body.layerRequirements.agent, ['agentId', 'userId']);
    assert.deepEqual(Object.keys(reply.body.endpoints).sort(), [
      'batch',
      'create',
      'delete',
      'discovery',
      'metadata',
      'query',
      'stream',
      'update',
    ]);
    assert.equal(reply.body.capabilities.batch.maxOperations, 100);
  });

  it('creates an entry in the store, with its layer, identifiers and metadata', async () => {
    const entry = await create('Use PostgreSQL for all new services per ADR-042', {
      layer: 'project',
      identifiers: { userId: 'osu', projectId: 'backend' },
      metadata: {
        tags: ['database', 'architecture'],
        source: { type: 'knowledge_sync' },
        knowledgePointer: {
          sourceType: 'adr',
          sourceId: 'adr-042',
          contentHash: 'sha256:abc',
          syncedAt: '2025-01-07T09:00:00Z',
        },
      },
    });
    assert.deepEqual([entry.layer, entry.identifiers], ['project', { projectId: 'backend' }]);
    const [stored] = await t.store.getMemories('project:backend', [entry.id]);
    assert.equal(stored.content, 'Use PostgreSQL for all new services per ADR-042');
    assert.deepEqual(stored.tags, ['database', 'architecture']);
    assert.deepEqual(stored.metadata.source, { type: 'knowledge_sync' });
    assert.equal((stored.metadata.knowledgePointer as { sourceId: string }).sourceId, 'adr-042');
    assert.equal(stored.metadata.created_by, 'osu');
  });

  it('applies the layer rules of the MCP tools: INVALID_LAYER, MISSING_IDENTIFIER, validation, secrets', async () => {
    const unknown = await call<ErrorBody>('POST', `${BASE}/create`, {
      content: 'x y z',
      layer: 'galaxy',
      identifiers: { userId: 'osu' },
    });
    assert.deepEqual(
      [unknown.status, unknown.body.error.code, unknown.body.error.operation, unknown.body.error.retryable],
      [400, 'INVALID_LAYER', 'create', false],
    );
    const missing = await call<ErrorBody>('POST', `${BASE}/create`, {
      content: 'x y z',
      layer: 'team',
      identifiers: { userId: 'osu' },
    });
    assert.deepEqual([missing.status, missing.body.error.code], [400, 'MISSING_IDENTIFIER']);
    const noUser = await call<ErrorBody>('POST', `${BASE}/create`, { content: 'x y z', layer: 'user' });
    assert.deepEqual([noUser.status, noUser.body.error.code], [400, 'MISSING_IDENTIFIER']);
    const badShape = await call<ErrorBody>('POST', `${BASE}/create`, { content: 42, identifiers: { userId: 'osu' } });
    assert.deepEqual([badShape.status, badShape.body.error.code], [400, 'INVALID_INPUT']);
    const badQueryLayer = await call<ErrorBody>('POST', `${BASE}/query`, {
      query: 'x',
      layers: ['user', 'nowhere'],
      identifiers: { userId: 'osu' },
    });
    assert.deepEqual(
      [badQueryLayer.status, badQueryLayer.body.error.code, badQueryLayer.body.error.operation],
      [400, 'INVALID_LAYER', 'query'],
    );
    const secret = await create('The deploy key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD');
    assert.doesNotMatch((await t.core.getMemory('osu', secret.id)).content, /sk-proj-abcdefghij/);
  });

  it('searches across the layers the identifiers open, with precedence, threshold and metadata filter', async () => {
    const own = await create('The kestrel service caches sessions in Redis', {
      identifiers: { userId: 'kq' },
      metadata: { tags: ['cache'], source: { type: 'conversation' } },
    });
    const shared = await create('The kestrel service runs on Node 24', {
      layer: 'project',
      identifiers: { userId: 'kq', projectId: 'kestrel' },
      metadata: { source: { type: 'manual' } },
    });
    type Results = {
      results: Array<{ memory: Entry; score: number; layer: string }>;
      totalCount: number;
      searchedLayers: string[];
    };
    const all = await call<Results>('POST', `${BASE}/query`, {
      query: 'kestrel service',
      identifiers: { userId: 'kq', projectId: 'kestrel' },
    });
    assert.equal(all.status, 200);
    assert.deepEqual(new Set(all.body.results.map((result) => result.memory.id)), new Set([own.id, shared.id]));
    assert.deepEqual(all.body.searchedLayers, ['user', 'project']);
    assert.ok(all.body.results.every((result) => result.score > 0 && result.score <= 1));
    const onlyProject = await call<Results>('POST', `${BASE}/query`, {
      query: 'kestrel service',
      layers: ['project'],
      identifiers: { userId: 'kq', projectId: 'kestrel' },
    });
    assert.deepEqual(
      onlyProject.body.results.map((result) => [result.memory.id, result.layer]),
      [[shared.id, 'project']],
    );
    const bySource = await call<Results>('POST', `${BASE}/query`, {
      query: 'kestrel service',
      identifiers: { userId: 'kq', projectId: 'kestrel' },
      filter: { sourceType: 'manual' },
    });
    assert.deepEqual(
      bySource.body.results.map((result) => result.memory.id),
      [shared.id],
    );
    const byTag = await call<Results>('POST', `${BASE}/query`, {
      query: 'kestrel service',
      identifiers: { userId: 'kq', projectId: 'kestrel' },
      filter: { tags: ['cache'] },
    });
    assert.deepEqual(
      byTag.body.results.map((result) => result.memory.id),
      [own.id],
    );
    const otherUser = await call<Results>('POST', `${BASE}/query`, {
      query: 'kestrel service',
      identifiers: { userId: 'intruder' },
    });
    assert.deepEqual(otherUser.body.results, []);
  });

  it('updates, reads metadata of and deletes an entry, in its layer only', async () => {
    const entry = await create('The heron build uses esbuild', {
      layer: 'project',
      identifiers: { userId: 'osu', projectId: 'heron' },
    });
    const updated = await call<{ memory: Entry; embeddingRegenerated: boolean }>('PUT', `${BASE}/${entry.id}`, {
      content: 'The heron build uses esbuild 0.28',
      metadata: { tags: ['build'], reviewed: true },
      layer: 'project',
      identifiers: { userId: 'osu', projectId: 'heron' },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const [stored] = await t.store.getMemories('project:heron', [entry.id]);
    assert.deepEqual(
      [stored.content, stored.tags, stored.metadata.reviewed],
      ['The heron build uses esbuild 0.28', ['build'], true],
    );

    const wrongPlace = await call<ErrorBody>('PUT', `${BASE}/${entry.id}`, {
      content: 'x y z',
      identifiers: { userId: 'osu' },
    });
    assert.deepEqual(
      [wrongPlace.status, wrongPlace.body.error.code, wrongPlace.body.error.operation],
      [404, 'MEMORY_NOT_FOUND', 'update'],
    );

    const metadata = await call<{
      id: string;
      layer: string;
      state: string;
      identifiers: Record<string, string>;
      embedding: { generated: boolean };
    }>('GET', `${BASE}/${entry.id}/metadata?layer=project&projectId=heron&userId=osu`);
    assert.deepEqual(
      [metadata.status, metadata.body.id, metadata.body.layer, metadata.body.state, metadata.body.identifiers],
      [200, entry.id, 'project', 'active', { projectId: 'heron' }],
    );

    const deleted = await call<{ success: boolean }>(
      'DELETE',
      `${BASE}/${entry.id}?layer=project&projectId=heron&userId=osu`,
    );
    assert.deepEqual([deleted.status, deleted.body], [200, { success: true }]);
    const [gone] = await t.store.getMemories('project:heron', [entry.id]);
    assert.ok(gone.deleted_at, 'soft-deleted in the store');
    const after = await call<{ state: string }>(
      'GET',
      `${BASE}/${entry.id}/metadata?layer=project&projectId=heron&userId=osu`,
    );
    assert.equal(after.body.state, 'deleted');
    const missing = await call<ErrorBody>('DELETE', `${BASE}/mem_nope?userId=osu`);
    assert.deepEqual([missing.status, missing.body.error.code], [404, 'MEMORY_NOT_FOUND']);
  });

  it('runs a batch in order, reporting each operation on its own', async () => {
    const kept = await create('The osprey queue is RabbitMQ');
    const reply = await call<{
      results: Array<{
        index: number;
        operation: string;
        ok: boolean;
        result?: { memory?: Entry };
        error?: { code: string };
      }>;
      succeeded: number;
      failed: number;
    }>('POST', `${BASE}/batch`, {
      operations: [
        {
          operation: 'create',
          input: { content: 'The osprey worker runs every minute', identifiers: { userId: 'osu' } },
        },
        { operation: 'create', input: { content: 'x y z', layer: 'galaxy', identifiers: { userId: 'osu' } } },
        {
          operation: 'update',
          id: kept.id,
          identifiers: { userId: 'osu' },
          input: { content: 'The osprey queue is RabbitMQ 3.13' },
        },
        { operation: 'delete', id: kept.id, identifiers: { userId: 'osu' } },
        { operation: 'explode' },
      ],
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(
      reply.body.results.map((outcome) => [outcome.operation, outcome.ok, outcome.error?.code]),
      [
        ['create', true, undefined],
        ['create', false, 'INVALID_LAYER'],
        ['update', true, undefined],
        ['delete', true, undefined],
        ['explode', false, 'INVALID_INPUT'],
      ],
    );
    assert.deepEqual([reply.body.succeeded, reply.body.failed], [3, 2]);
    const created = reply.body.results[0].result?.memory?.id as string;
    assert.equal((await t.core.getMemory('osu', created)).content, 'The osprey worker runs every minute');
    const updated = await t.core.getMemory('osu', kept.id);
    assert.deepEqual([updated.content, Boolean(updated.deleted_at)], ['The osprey queue is RabbitMQ 3.13', true]);
    const tooMany = await call<ErrorBody>('POST', `${BASE}/batch`, {
      operations: Array.from({ length: 101 }, () => ({ operation: 'delete', id: 'x' })),
    });
    assert.deepEqual([tooMany.status, tooMany.body.error.code], [400, 'INVALID_INPUT']);
  });

  it('streams changes of the entries the caller may read as server-sent events', async () => {
    const events = openStream(server.url, `${BASE}/stream?userId=streamer&projectId=falcon`);
    try {
      const ready = await events.next();
      assert.equal(ready.event, 'ready');
      assert.deepEqual(JSON.parse(ready.data).watching, ['personal', 'project']);
      await call('POST', `${BASE}/create`, {
        content: 'Another user writes about falcon privately',
        identifiers: { userId: 'someone-else' },
      });
      const own = await call<{ memory: Entry }>('POST', `${BASE}/create`, {
        content: 'Falcon notes of the streamer',
        identifiers: { userId: 'streamer' },
      });
      const shared = await call<{ memory: Entry }>('POST', `${BASE}/create`, {
        content: 'Falcon deploys on Tuesdays',
        layer: 'project',
        identifiers: { userId: 'someone-else', projectId: 'falcon' },
      });
      await call('DELETE', `${BASE}/${own.body.memory.id}?userId=streamer`);
      const received = [await events.next(), await events.next(), await events.next()].map((event) => ({
        event: event.event,
        ...(JSON.parse(event.data) as { change: string; ids: string[]; entries?: Entry[] }),
      }));
      assert.deepEqual(
        received.map((event) => [event.event, event.change, event.ids]),
        [
          ['change', 'created', [own.body.memory.id]],
          ['change', 'created', [shared.body.memory.id]],
          ['change', 'deleted', [own.body.memory.id]],
        ],
      );
      assert.equal(received[1].entries?.[0].content, 'Falcon deploys on Tuesdays');
    } finally {
      events.close();
    }
  });

  it('answers unknown routes with 404 and wrong methods with 405', async () => {
    assert.equal((await call('GET', `${BASE}/a/b/c`)).status, 404);
    assert.equal((await call('GET', `${BASE}/query`)).status, 405);
    assert.equal((await call('POST', BASE, {})).status, 405);
  });
});

/** A minimal SSE reader over node:http: `next()` resolves with each event as it arrives. */
function openStream(base: string, path: string): { next(): Promise<{ event: string; data: string }>; close(): void } {
  const queued: Array<{ event: string; data: string }> = [];
  const waiting: Array<(event: { event: string; data: string }) => void> = [];
  let buffer = '';
  const deliver = (event: { event: string; data: string }) => {
    const waiter = waiting.shift();
    if (waiter) waiter(event);
    else queued.push(event);
  };
  const request = httpRequest(
    `${base}${path}`,
    { headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'text/event-stream' } },
    (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
          const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length);
          if (event && data) deliver({ event, data });
        }
      });
    },
  );
  request.end();
  return {
    next: () =>
      queued.length > 0
        ? Promise.resolve(queued.shift() as { event: string; data: string })
        : new Promise((resolve) => waiting.push(resolve)),
    close: () => request.destroy(),
  };
}

describe('OpenSpec on a server bound to one user', () => {
  let t: TestCore;
  let server: RunningHttpServer;
  before(async () => {
    t = await createTestCore();
    server = await startHttpServer({ core: t.core, defaultUserId: 'alice' }, { port: 0, token: TOKEN });
  });
  after(async () => {
    await server.close();
    await t.cleanup();
  });

  it('acts for the bound user when none is named and refuses any other, as the MCP tools do', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}${BASE}/create`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const own = await post({ content: 'Alice keeps notes on the wren service' });
    assert.equal(own.status, 201);
    const { memory } = (await own.json()) as { memory: { id: string } };
    assert.equal((await t.core.getMemory('alice', memory.id)).content, 'Alice keeps notes on the wren service');
    const other = await post({ content: 'Bob writes into Alice server', identifiers: { userId: 'bob' } });
    assert.equal(other.status, 403);
    assert.equal(((await other.json()) as ErrorBody).error.code, 'UNAUTHORIZED');
    const team = await post({ content: 'A team memory', layer: 'team', identifiers: { teamId: 'core' } });
    assert.equal(team.status, 403);
  });
});
