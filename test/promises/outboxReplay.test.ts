import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { FireboltCoreConfig } from '../../src/stores/firebolt/fireboltConfig.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { Outbox } from '../../src/stores/resilient/outbox.ts';
import { ResilientStore } from '../../src/stores/resilient/resilientStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { embedding, makeAccess, makeMemory, MODEL, newUserId } from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';
import { faultyRemote } from './faultyRemote.ts';
import { rowsWith } from './storeOnDisk.ts';
import type { Fault } from './faultyRemote.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

/** Polls until `done` holds; the bound only keeps a broken replayer from hanging the run. */
async function eventually(what: string, done: () => Promise<boolean> | boolean, boundMs = 20_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('outbox replay: lost acknowledgements, rejected writes, the replay lease', () => {
  let server: FireboltTestServer;
  let config: FireboltCoreConfig;
  let dir: string;
  let store: ResilientStore;
  let faults: Map<string, Fault[]>;
  let calls: Map<string, number>;
  let remote: FireboltStore;

  /** Rows Firebolt holds for a memory id, read straight from the server. */
  async function remoteRows(memoryId: string): Promise<Array<{ content: string }>> {
    const client = new FireboltQueryClient(config);
    try {
      return (await client.query('SELECT content FROM fml_memories WHERE memory_id = $1', [memoryId])).rows as Array<{
        content: string;
      }>;
    } finally {
      client.close();
    }
  }

  /** The outbox file as another process would see it. */
  function outboxTable(table: 'outbox' | 'outbox_rejected'): Array<Record<string, unknown>> {
    const db = new DatabaseSync(join(dir, 'outbox.db'), { readOnly: true });
    try {
      return db.prepare(`SELECT * FROM ${table} ORDER BY seq`).all() as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  }

  before(async () => {
    server = await startFireboltTestServer({ port: 0 });
    config = { kind: 'core', url: server.url, database: 'outbox_replay' };
  });
  after(() => server.close());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fml-outbox-replay-'));
    remote = new FireboltStore(config, { retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 5 } });
    const faulty = faultyRemote(remote);
    faults = faulty.faults;
    calls = faulty.calls;
    store = new ResilientStore({
      remote: faulty.store,
      local: new SqliteMemoryStore({ dataDir: join(dir, 'replica') }),
      outbox: new Outbox(join(dir, 'outbox.db')),
      replay: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    await store.open();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an insert that landed in Firebolt but whose acknowledgement was lost is replayed once: Firebolt holds one row', async () => {
    const user = newUserId();
    const memory = makeMemory(user, { content: 'lost-ack insert' });
    faults.set('insertMemory', ['lose-acknowledgement']);

    await store.insertMemory(memory, null);
    assert.equal((await remoteRows(memory.memory_id)).length, 1, 'the write reached Firebolt');
    // The replay (5 ms back-off here) may already have drained it on a busy machine; if not, it is
    // still queued, marked as tried, so the replay checks whether it is already there.
    const queued = outboxTable('outbox');
    assert.ok(queued.length <= 1, 'the unacknowledged write is queued once');
    if (queued.length === 1) assert.equal(queued[0].attempts, 1, 'marked as tried');

    await eventually('the outbox to drain', () => store.pendingWrites() === 0 && store.online);
    assert.equal(calls.get('insertMemory'), 1, 'the replay found the row there and did not send the insert again');
    assert.deepEqual(
      await remoteRows(memory.memory_id),
      [{ content: 'lost-ack insert' }],
      'exactly one row: the replay did not insert it again',
    );
  });

  it('a write Firebolt keeps refusing is set aside after 3 attempts, kept in outbox_rejected, and the writes behind it go through', async () => {
    const user = newUserId();
    const first = makeMemory(user, { content: 'refused insert' });
    const second = makeMemory(user, { content: 'insert queued behind it' });
    faults.set('insertMemory', ['reject', 'reject', 'reject']);

    await store.insertMemory(first, null);
    await store.insertMemory(second, null);
    await eventually('the outbox to drain', () => store.pendingWrites() === 0);

    assert.equal(calls.get('insertMemory'), 4, 'three attempts for the refused write, one for the next');
    const rejected = outboxTable('outbox_rejected');
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0].op, 'insertMemory');
    assert.match(String(rejected[0].payload), new RegExp(first.memory_id));
    assert.match(String(rejected[0].error), /refused the statement/);
    assert.deepEqual(outboxTable('outbox'), []);
    assert.deepEqual(await remoteRows(first.memory_id), []);
    assert.deepEqual(await remoteRows(second.memory_id), [{ content: 'insert queued behind it' }]);
    assert.equal(
      rowsWith(join(dir, 'replica', 'memory.db'), 'memory_id', first.memory_id).long_term_memories,
      1,
      'the acknowledged write is still in the replica',
    );
    const health = await store.health();
    assert.equal(health.status, 'degraded');
    assert.match(health.detail, /1 write\(s\) Firebolt rejected/);
  });

  it('a write refused twice and then accepted is applied once and not set aside', async () => {
    const memory = makeMemory(newUserId(), { content: 'refused twice' });
    faults.set('insertMemory', ['reject', 'reject']);
    await store.insertMemory(memory, null);
    await eventually('the outbox to drain', () => store.pendingWrites() === 0);
    assert.equal(calls.get('insertMemory'), 3);
    assert.deepEqual(outboxTable('outbox_rejected'), []);
    assert.deepEqual(await remoteRows(memory.memory_id), [{ content: 'refused twice' }]);
  });

  it("replays an update of a memory Firebolt lacks as an insert carrying the replica's vector, then a hard delete and an access record", async () => {
    const user = newUserId();
    const memory = { ...makeMemory(user, { content: 'first version' }), embedding_model: MODEL };
    const vector = embedding(new Float32Array([0.6, 0.8, 0, 0]));
    // The insert is refused until set aside, so Firebolt never gets the row the update then targets.
    faults.set('insertMemory', ['reject', 'reject', 'reject']);
    await store.insertMemory(memory, vector);
    await eventually('the refused insert to be set aside', () => store.pendingWrites() === 0);
    assert.deepEqual(await remoteRows(memory.memory_id), []);

    await store.changeMemory({
      user_id: user,
      memory_id: memory.memory_id,
      change: { content: 'second version' },
      at: memory.updated_at,
      if_forgotten: 'reject',
    });
    await eventually('the update to replay', () => store.pendingWrites() === 0);
    assert.deepEqual(
      await remoteRows(memory.memory_id),
      [{ content: 'second version' }],
      'the update became an insert',
    );
    const remoteVector = (await remote.getEmbeddings(user, [memory.memory_id])).get(memory.memory_id);
    assert.deepEqual(
      remoteVector && [...remoteVector.vector].map((value) => Math.round(value * 100) / 100),
      [0.6, 0.8, 0, 0],
      'with the vector kept in the replica',
    );

    await store.recordAccess([makeAccess(memory)]);
    await eventually('the access record to replay', () => store.pendingWrites() === 0);
    assert.equal((await remote.listAccessLog(user, 0, 10)).length, 1);

    assert.equal(await store.hardDeleteMemory(user, memory.memory_id), true);
    await eventually('the delete to replay', () => store.pendingWrites() === 0);
    assert.deepEqual(await remoteRows(memory.memory_id), []);
  });

  it("a dialog turn's replayed writes carry its turn facts to Firebolt: an update replayed as an insert, then a forget", async () => {
    const user = newUserId();
    const turn = makeMemory(user, {
      content: 'We took the north ridge.',
      memory_category: 'episodic',
      memory_subtype: 'conversation',
      metadata: { thread_id: 'hike' },
    });
    faults.set('insertMemory', ['reject', 'reject', 'reject']);
    await store.insertMemory(turn, null);
    await eventually('the refused insert to be set aside', () => store.pendingWrites() === 0);
    assert.equal((await remote.turnFacts(user, [turn.memory_id])).size, 0);

    await store.changeMemory({
      user_id: user,
      memory_id: turn.memory_id,
      change: { content: 'Which ridge did we take?', merge_metadata: { thread_id: 'hike-2' } },
      at: turn.updated_at,
      if_forgotten: 'reject',
    });
    await eventually('the update to replay', () => store.pendingWrites() === 0);
    assert.deepEqual(Object.fromEntries(await remote.turnFacts(user, [turn.memory_id])), {
      [turn.memory_id]: { conversation: 'thread_id:hike-2', question: true },
    });
    assert.deepEqual(await remote.turnFacts(user, [turn.memory_id]), await store.turnFacts(user, [turn.memory_id]));

    await store.forgetMemories(user, [turn.memory_id], turn.updated_at);
    await eventually('the forget to replay', () => store.pendingWrites() === 0);
    assert.equal((await remote.turnFacts(user, [turn.memory_id])).size, 0, 'forgotten in Firebolt too');
  });

  it('an update Firebolt refuses is not turned into an insert: it is set aside and the row keeps its content', async () => {
    const memory = makeMemory(newUserId(), { content: 'as first stored' });
    await store.insertMemory(memory, null);
    faults.set('changeMemory', ['reject', 'reject', 'reject']);
    await rewriteMemory(store, { ...memory, content: 'refused edit' });
    await eventually('the refused update to be set aside', () => store.pendingWrites() === 0);
    assert.deepEqual(
      await remoteRows(memory.memory_id),
      [{ content: 'as first stored' }],
      'one row, unchanged: no insert after a refusal',
    );
    assert.deepEqual(
      outboxTable('outbox_rejected').map((row) => row.op),
      ['changeMemory'],
    );
    assert.equal(calls.get('insertMemory'), 1);
  });

  it('while another process holds the replay lease this one does not push; it replays once the lease is free', async () => {
    const other = new Outbox(join(dir, 'outbox.db'));
    await other.open();
    try {
      assert.equal(await other.claimLease(), true);
      const memory = makeMemory(newUserId(), { content: 'written under a foreign lease' });
      await store.insertMemory(memory, null);
      assert.equal(calls.get('insertMemory') ?? 0, 0, 'not pushed while the lease is held elsewhere');
      assert.equal(outboxTable('outbox').length, 1);
      assert.deepEqual(await remoteRows(memory.memory_id), []);
    } finally {
      other.close();
    }
    // A read notices the pending write and schedules a replay; the lease is free now.
    await store.listMemories({ filter: { user_id: 'nobody' }, sort: 'created', offset: 0, limit: 1 });
    await eventually('the outbox to drain', () => store.pendingWrites() === 0);
    assert.equal(calls.get('insertMemory'), 1);
  });
});

describe('an outbox that is not open', () => {
  it('refuses every call with PROVIDER_ERROR naming its file', async () => {
    const outbox = new Outbox(join(tmpdir(), 'fml-never-opened', 'outbox.db'));
    for (const call of [() => outbox.peek(1), () => outbox.pending(), () => outbox.rejected()]) {
      assert.throws(
        call,
        (error: Error & { code?: string; operation?: string }) =>
          error.code === 'PROVIDER_ERROR' &&
          /fml-never-opened\/outbox\.db is not open/.test(error.message) &&
          error.operation === 'outbox',
      );
    }
    await assert.rejects(
      outbox.enqueue({ op: 'deleteUser', userId: 'u' }),
      (error: Error & { code?: string }) => error.code === 'PROVIDER_ERROR',
    );
  });
});

describe('outbox replay lease between two outboxes on one file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fml-outbox-lease-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('one holder at a time; the holder renews; an expired lease is taken over; closing releases it', async () => {
    const a = new Outbox(join(dir, 'outbox.db'));
    const b = new Outbox(join(dir, 'outbox.db'));
    await a.open();
    await b.open();
    const now = 1_000_000;
    assert.equal(await a.claimLease(now), true);
    assert.equal(await b.claimLease(now + 1), false, 'held by a');
    assert.equal(await a.claimLease(now + 29_000), true, 'a renews');
    assert.equal(await b.claimLease(now + 30_000 + 28_000), false, 'the renewal pushed the expiry out');
    assert.equal(await b.claimLease(now + 29_000 + 30_001), true, 'expired: b takes over');
    assert.equal(await a.claimLease(now + 29_000 + 30_002), false, 'now held by b');
    b.close();
    assert.equal(await a.claimLease(now + 29_000 + 30_003), true, 'closing released it');
    a.close();
  });
});

describe('erasure reaches queued writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fml-outbox-erase-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("a queued batch of access records loses only the erased memory's records, in the pending and the rejected queue", async () => {
    const outbox = new Outbox(join(dir, 'outbox.db'));
    await outbox.open();
    try {
      const user = newUserId();
      const [erased, kept] = [makeMemory(user), makeMemory(user)];
      const batch = { op: 'recordAccess' as const, entries: [makeAccess(erased), makeAccess(kept)] };
      await outbox.enqueue(batch);
      const refused = await outbox.enqueue(batch);
      await outbox.reject(refused, 'refused by Firebolt');
      await outbox.erase(user, erased.memory_id);
      const stored = (table: string) =>
        (
          new DatabaseSync(join(dir, 'outbox.db'), { readOnly: true })
            .prepare(`SELECT payload FROM ${table}`)
            .all() as Array<{ payload: string }>
        ).map((row) => row.payload);
      for (const table of ['outbox', 'outbox_rejected']) {
        const payloads = stored(table);
        assert.equal(payloads.length, 1, table);
        assert.ok(payloads[0]!.includes(kept.memory_id), `${table} keeps the other memory's record`);
        assert.ok(!payloads[0]!.includes(erased.memory_id), `${table} holds nothing of the erased memory`);
      }
      assert.deepEqual(outbox.peek(1)[0]?.op, { op: 'recordAccess', entries: [batch.entries[1]] });
    } finally {
      outbox.close();
    }
  });
});
