import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import type { FireboltCoreConfig } from '../../src/stores/firebolt/fireboltConfig.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { createResilientFireboltStore } from '../../src/stores/resilient/createResilientStore.ts';
import type { ResilientStore } from '../../src/stores/resilient/resilientStore.ts';
import { makeMemory, makeSession, newUserId } from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';
import { callOk, connectClient, readJsonResource } from '../support/testCore.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

const fast = {
  client: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 } },
  replay: { baseDelayMs: 20, maxDelayMs: 200 },
};

/** Polls until `done` holds; the bound only keeps a broken replayer from hanging the run. */
async function eventually(what: string, done: () => Promise<boolean> | boolean, boundMs = 20_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What Firebolt holds for a user, in storage order, read straight from the server. */
async function remoteMemoryIds(config: FireboltCoreConfig, userId: string): Promise<string[]> {
  const client = new FireboltQueryClient(config);
  try {
    const { rows } = await client.query(
      'SELECT memory_id FROM fml_memories WHERE user_id = $1 ORDER BY stored_seq ASC',
      [userId],
    );
    return rows.map((row) => row.memory_id as string);
  } finally {
    client.close();
  }
}

describe('resilient store: Firebolt goes away mid-run and comes back', () => {
  const serverDir = mkdtempSync(join(tmpdir(), 'fml-outage-server-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-outage-data-'));
  let server: FireboltTestServer;
  let port: number;
  let config: FireboltCoreConfig;
  let store: ResilientStore;

  before(async () => {
    server = await startFireboltTestServer({ port: 0, dataDir: serverDir });
    port = Number(new URL(server.url).port);
    config = { kind: 'core', url: server.url, database: 'outage' };
    store = createResilientFireboltStore(config, dataDir, fast);
    await store.open();
  });
  after(async () => {
    await store.close();
    await server.close();
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('acknowledges every write while Firebolt is down, serves reads locally, then replays them in order, once', async () => {
    const user = newUserId();
    const written: string[] = [];
    const write = async (content: string): Promise<void> => {
      const memory = makeMemory(user, { content });
      await store.insertMemory(memory, null);
      written.push(memory.memory_id);
    };
    for (let i = 0; i < 3; i += 1) await write(`before the outage ${i}`);
    assert.equal(store.online, true);
    assert.deepEqual(await remoteMemoryIds(config, user), written);

    await server.close();
    for (let i = 0; i < 8; i += 1) await write(`during the outage ${i}`);
    const edited = { ...(await store.getMemories(user, [written[3]]))[0], content: 'edited during the outage' };
    await rewriteMemory(store, edited);
    const session = makeSession(user);
    await store.commitWorking({ session, upsert: [], delete: [] });

    assert.equal(store.online, false);
    assert.equal(store.pendingWrites(), 10);
    const health = await store.health();
    assert.equal(health.status, 'degraded');
    assert.match(health.detail, /10 acknowledged write\(s\) queued/);
    const listed = await store.listMemories({ filter: { user_id: user }, sort: 'created', offset: 0, limit: 100 });
    assert.equal(listed.total, written.length, 'reads come from the local replica');
    assert.equal((await store.getMemories(user, [written[3]]))[0].content, 'edited during the outage');

    server = await startFireboltTestServer({ port, dataDir: serverDir });
    await eventually('the outbox to drain', () => store.online && store.pendingWrites() === 0);

    assert.deepEqual(
      await remoteMemoryIds(config, user),
      written,
      'every acknowledged insert, in write order, none twice',
    );
    assert.equal((await store.getMemories(user, [written[3]]))[0].content, 'edited during the outage');
    assert.equal((await store.listSessions(user)).length, 1);
    assert.equal((await store.health()).status, 'healthy');
  });

  it('changes racing a forget while Firebolt is down replay as intents: every key kept, the forget wins, on both sides', async () => {
    const user = newUserId();
    const merged = makeMemory(user, { content: 'annotated by twenty writers during an outage' });
    const forgotten = makeMemory(user, { content: 'forgotten while background work was in flight' });
    await store.insertMemory(merged, null);
    await store.insertMemory(forgotten, null);
    await eventually('the inserts to reach Firebolt', () => store.pendingWrites() === 0);
    await server.close();
    const change = (memory: typeof merged, key: string, ifForgotten: 'reject' | 'drop') =>
      store.changeMemory({
        user_id: user,
        memory_id: memory.memory_id,
        change: { merge_metadata: { [key]: true } },
        at: new Date().toISOString(),
        if_forgotten: ifForgotten,
      });
    const keys = Array.from({ length: 20 }, (_, index) => `key_${index}`);
    await Promise.all([
      ...keys.map((key) => change(merged, key, 'reject')),
      ...keys.map((key) => change(forgotten, key, 'drop')),
      store.forgetMemories(user, [forgotten.memory_id], new Date().toISOString()),
    ]);
    server = await startFireboltTestServer({ port, dataDir: serverDir });
    await eventually('the outbox to drain', () => store.online && store.pendingWrites() === 0);
    const client = new FireboltQueryClient(config);
    try {
      const { rows } = await client.query(
        'SELECT memory_id, metadata, deleted_at FROM fml_memories WHERE user_id = $1 ORDER BY memory_id',
        [user],
      );
      const byId = new Map(rows.map((row) => [row.memory_id as string, row]));
      const remoteMerged = JSON.parse(byId.get(merged.memory_id)!.metadata as string) as Record<string, unknown>;
      assert.deepEqual(
        keys.filter((key) => remoteMerged[key] !== true),
        [],
        'every acknowledged key reached Firebolt',
      );
      assert.notEqual(byId.get(forgotten.memory_id)!.deleted_at, null, 'Firebolt has the forget');
    } finally {
      client.close();
    }
    const [local] = await store.getMemories(user, [forgotten.memory_id]);
    assert.notEqual(local.deleted_at, null, 'the replica has the forget');
  });
});

describe('resilient store under the MCP server', () => {
  const serverDir = mkdtempSync(join(tmpdir(), 'fml-outage-mcp-server-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-outage-mcp-data-'));
  let server: FireboltTestServer;
  let config: FireboltCoreConfig;
  let store: ResilientStore;
  let core: MemoryCore;

  before(async () => {
    server = await startFireboltTestServer({ port: 0, dataDir: serverDir });
    config = { kind: 'core', url: server.url, database: 'outage_mcp' };
    store = createResilientFireboltStore(config, dataDir, fast);
    core = new MemoryCore({ store });
    await core.open();
  });
  after(async () => {
    await core.close();
    await server.close();
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps storing and recalling through a paused Firebolt, reports degraded, and converges on resume', async () => {
    const { client, close } = await connectClient({ core });
    try {
      const user = 'outage-user';
      const store_ = (content: string) =>
        callOk<{ memory_id: string }>(client, 'store_memory', {
          user_id: user,
          content,
          memory_category: 'semantic',
          memory_subtype: 'project',
        });
      const ids = [(await store_('The deploy script lives in scripts/deploy.sh')).memory_id];

      await server.pause();
      for (const content of [
        'Firebolt outage note: the staging database is fml_stage',
        'The outage runbook is in docs/runbook.md',
      ])
        ids.push((await store_(content)).memory_id);

      const recalled = await callOk<{ memories: Array<{ memory_id: string }> }>(client, 'recall_memories', {
        user_id: user,
        query: 'outage runbook staging database',
      });
      assert.ok(
        recalled.memories.some((memory) => memory.memory_id === ids[2]),
        'recall answers from the local replica',
      );
      const stats = await readJsonResource<{ memories: number; backend: { status: string; detail: string } }>(
        client,
        `memory://${user}/stats`,
      );
      assert.equal(stats.backend.status, 'degraded');
      assert.match(stats.backend.detail, /unreachable/);
      assert.equal(stats.memories, 3);

      await server.resume();
      await eventually('the outbox to drain', () => store.online && store.pendingWrites() === 0);
      assert.deepEqual(await remoteMemoryIds(config, user), ids);
      const healthy = await readJsonResource<{ backend: { status: string } }>(client, `memory://${user}/stats`);
      assert.equal(healthy.backend.status, 'healthy');
    } finally {
      await close();
    }
  });
});

describe('resilient store opened while Firebolt is down', () => {
  it('starts degraded, keeps writes, and delivers them once Firebolt starts', async () => {
    const serverDir = mkdtempSync(join(tmpdir(), 'fml-cold-server-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'fml-cold-data-'));
    // Reserve a free port, then free it so nothing listens there.
    const probe = await startFireboltTestServer({ port: 0 });
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const config: FireboltCoreConfig = { kind: 'core', url: `http://127.0.0.1:${port}`, database: 'cold' };
    const store = createResilientFireboltStore(config, dataDir, fast);
    let server: FireboltTestServer | null = null;
    try {
      await store.open();
      assert.equal(store.online, false);
      const user = newUserId();
      const memory = makeMemory(user, { content: 'written before Firebolt ever answered' });
      await store.insertMemory(memory, null);
      assert.equal((await store.health()).status, 'degraded');
      server = await startFireboltTestServer({ port, dataDir: serverDir });
      await eventually('the outbox to drain', () => store.online && store.pendingWrites() === 0);
      assert.deepEqual(await remoteMemoryIds(config, user), [memory.memory_id]);
    } finally {
      await store.close();
      await server?.close();
      rmSync(serverDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
