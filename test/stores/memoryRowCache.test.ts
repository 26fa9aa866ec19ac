import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { StatementSync, type SQLInputValue } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AccessLogEntry } from '../../src/core/domain/records.ts';
import { MAX_ROWS, MemoryRowCache } from '../../src/stores/sqlite/memoryRowCache.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory, newUserId } from '../contract/fixtures.ts';

async function withStores(work: (a: SqliteMemoryStore, b: SqliteMemoryStore) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-row-cache-'));
  // Two stores on one file: two processes, each with its own caches, kept in step by the change log.
  const a = new SqliteMemoryStore({ dataDir });
  await a.open();
  const b = new SqliteMemoryStore({ dataDir });
  await b.open();
  try {
    await work(a, b);
  } finally {
    await a.close();
    await b.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** How many row reads by id (readMemoryRows) the work runs. */
async function rowReads(work: () => Promise<unknown>): Promise<number> {
  const all = StatementSync.prototype.all;
  let reads = 0;
  StatementSync.prototype.all = function (this: StatementSync, ...args: SQLInputValue[]) {
    if (this.sourceSQL.includes('FROM long_term_memories WHERE memory_id IN')) reads++;
    return all.apply(this, args as Parameters<typeof all>);
  } as typeof all;
  try {
    await work();
  } finally {
    StatementSync.prototype.all = all;
  }
  return reads;
}

function access(userId: string, memoryId: string, at: string): AccessLogEntry {
  return {
    access_id: `acc-${memoryId}-${at}`,
    memory_id: memoryId,
    session_id: null,
    user_id: userId,
    query_text: 'q',
    similarity_score: 0.5,
    tool: 'recall_memories',
    accessed_at: at,
  };
}

describe('memory row cache', () => {
  it('serves a row read again from memory, as a fresh record each time', async () => {
    await withStores(async (a) => {
      const user = newUserId();
      const memory = makeMemory(user, { metadata: { dia_id: 'D1:1' } });
      await a.insertMemory(memory, null);
      const [first] = await a.getMemories(user, [memory.memory_id]);
      let again: typeof first | undefined;
      assert.equal(
        await rowReads(async () => {
          [again] = await a.getMemories(user, [memory.memory_id]);
        }),
        0,
      );
      assert.deepEqual(again, first);
      // Callers own what they get: a change to one answer is not in the next.
      first!.metadata.dia_id = 'changed';
      first!.entities.push('x');
      const [third] = await a.getMemories(user, [memory.memory_id]);
      assert.deepEqual(third!.metadata, { dia_id: 'D1:1' });
      assert.deepEqual(third!.entities, []);
    });
  });

  it('never answers another user with a cached row', async () => {
    await withStores(async (a) => {
      const owner = newUserId();
      const memory = makeMemory(owner);
      await a.insertMemory(memory, null);
      await a.getMemories(owner, [memory.memory_id]);
      assert.deepEqual(await a.getMemories(newUserId(), [memory.memory_id]), []);
    });
  });

  it("this process's update, access bump and hard delete are seen by the next read", async () => {
    await withStores(async (a) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'first words' });
      await a.insertMemory(memory, null);
      await a.getMemories(user, [memory.memory_id]);
      await a.updateMemory({ ...memory, content: 'second words' });
      assert.equal((await a.getMemories(user, [memory.memory_id]))[0]!.content, 'second words');
      await a.recordAccess([access(user, memory.memory_id, '2030-01-01T00:00:00.000Z')]);
      const [bumped] = await a.getMemories(user, [memory.memory_id]);
      assert.equal(bumped!.access_count, memory.access_count + 1);
      assert.equal(bumped!.last_accessed, '2030-01-01T00:00:00.000Z');
      assert.equal(await a.hardDeleteMemory(user, memory.memory_id), true);
      assert.deepEqual(await a.getMemories(user, [memory.memory_id]), []);
    });
  });

  it("another process's update, access bump, hard delete and user deletion are seen by the next read", async () => {
    await withStores(async (a, b) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'first words' });
      const other = makeMemory(user, { content: 'other words' });
      await a.insertMemory(memory, null);
      await a.insertMemory(other, null);
      await a.getMemories(user, [memory.memory_id, other.memory_id]);
      await b.updateMemory({ ...memory, content: 'second words' });
      assert.equal((await a.getMemories(user, [memory.memory_id]))[0]!.content, 'second words');
      await b.recordAccess([access(user, memory.memory_id, '2030-01-01T00:00:00.000Z')]);
      assert.equal((await a.getMemories(user, [memory.memory_id]))[0]!.access_count, memory.access_count + 1);
      await b.hardDeleteMemory(user, memory.memory_id);
      assert.deepEqual(await a.getMemories(user, [memory.memory_id]), []);
      assert.equal((await a.getMemories(user, [other.memory_id])).length, 1);
      await b.deleteUser(user);
      assert.deepEqual(await a.getMemories(user, [other.memory_id]), []);
    });
  });

  it('holds at most MAX_ROWS rows, the least recently read dropped first', () => {
    const cache = new MemoryRowCache();
    const row = (id: number) => ({ memory_id: `m${id}`, user_id: 'u', content: 'x' });
    for (let id = 0; id <= MAX_ROWS; id++) cache.remember(row(id));
    assert.equal(cache.size, MAX_ROWS);
    assert.equal(cache.get('u', 'm0'), undefined);
    assert.deepEqual(cache.get('u', `m${MAX_ROWS}`), row(MAX_ROWS));
  });
});
