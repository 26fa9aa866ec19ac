import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FORGET_ALL_CONFIRMATION } from '../../src/core/api/longTermApi.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { createTestCore } from '../support/testCore.ts';
import type { TestCore } from '../support/testCore.ts';
import { bytesContainText, cellsContaining, indexFileBytes, indexFilePaths, rowsWith } from './storeOnDisk.ts';

/** Tables that hold a memory's data; change_log only records that an id changed, for other processes. */
const DATA_TABLES = ['long_term_memories', 'embeddings', 'lexical_documents', 'memory_access_log'];

function dataRows(counts: Record<string, number>): Record<string, number> {
  // The change log and the erased-id list hold the id alone (no content), by design: the one so other
  // processes drop their cached copy, the other so no late writer can store the id again.
  return Object.fromEntries(
    Object.entries(counts).filter(([table]) => table !== 'change_log' && table !== 'erased_memories'),
  );
}

describe('hard delete and erasure, checked in the database file', () => {
  let t: TestCore;
  let dbPath: string;
  before(async () => {
    t = await createTestCore();
    dbPath = join(t.dataDir, 'memory.db');
  });
  after(() => t.cleanup());

  it('a hard-deleted memory leaves no row in any table: not its record, vector, search-index terms or access log', async () => {
    const user = 'erase-one';
    const kept = await t.core.storeMemory({
      user_id: user,
      content: 'The build cache lives in .cache/turbo for the monorepo',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const doomed = await t.core.storeMemory({
      user_id: user,
      content: 'The quartermaster password rotation happens every zanzibar quarter',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    // A recall records access-log rows for what it returns.
    const recalled = await t.core.recall({ user_id: user, query: 'quartermaster zanzibar rotation' });
    assert.ok(recalled.memories.some((memory) => memory.memory_id === doomed.memory_id));
    await t.core.flushAccessLog();
    const before = rowsWith(dbPath, 'memory_id', doomed.memory_id);
    for (const table of ['long_term_memories', 'lexical_documents', 'memory_access_log'])
      assert.ok(before[table] > 0, `${table} held the memory before the delete`);

    await t.core.forgetMemory({ user_id: user, memory_id: doomed.memory_id, hard_delete: true });
    await t.core.flushAccessLog();

    const tombstones = rowsWith(dbPath, 'memory_id', doomed.memory_id).erased_memories;
    assert.equal(tombstones, 1, 'the erased id is remembered, so it cannot be stored again');
    const after = dataRows(rowsWith(dbPath, 'memory_id', doomed.memory_id));
    assert.deepEqual(Object.keys(after).sort(), [...DATA_TABLES].sort(), 'every data table was checked');
    assert.deepEqual(after, Object.fromEntries(DATA_TABLES.map((table) => [table, 0])));
    assert.deepEqual(cellsContaining(dbPath, 'password rotation happens'), [], 'no table holds its text');
    assert.equal(rowsWith(dbPath, 'memory_id', kept.memory_id).long_term_memories, 1, 'the other memory is untouched');
    const again = await t.core.recall({ user_id: user, query: 'quartermaster zanzibar rotation' });
    assert.ok(!again.memories.some((memory) => memory.memory_id === doomed.memory_id));
  });

  it('hard delete answers what it did and announces the purge; soft delete keeps every row; a missing id deletes nothing', async () => {
    const user = 'erase-answers';
    const soft = await t.core.storeMemory({
      user_id: user,
      content: 'Soft-deleted notes about the pelican pipeline',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const hard = await t.core.storeMemory({
      user_id: user,
      content: 'Hard-deleted notes about the walrus pipeline',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const events: Array<{ type: string; memory_ids?: string[]; change?: string }> = [];
    const listening = t.core.onEvent((event) => events.push(event as { type: string }));
    try {
      assert.deepEqual(await t.core.forgetMemory({ user_id: user, memory_id: soft.memory_id }), {
        success: true,
        hard_deleted: false,
        forgotten: [soft.memory_id],
        not_found: [],
      });
      assert.equal(
        rowsWith(dbPath, 'memory_id', soft.memory_id).long_term_memories,
        1,
        'a soft delete keeps the row (restorable)',
      );
      assert.deepEqual(await t.core.forgetMemory({ user_id: user, memory_id: hard.memory_id, hard_delete: true }), {
        success: true,
        hard_deleted: true,
        forgotten: [hard.memory_id],
        not_found: [],
      });
    } finally {
      listening.dispose();
    }
    assert.ok(
      events.some(
        (event) => event.type === 'memory' && event.change === 'purged' && event.memory_ids?.includes(hard.memory_id),
      ),
      'panels hear about the purge',
    );
    assert.equal(await t.store.hardDeleteMemory(user, hard.memory_id), false, 'deleting it again deletes nothing');
    const direct = await t.core.storeMemory({
      user_id: user,
      content: 'Deleted straight through the store',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    assert.equal(
      await t.store.hardDeleteMemory(user, direct.memory_id),
      true,
      'the store says when it deleted something',
    );
    assert.equal(
      await t.store.hardDeleteMemory('someone-else', soft.memory_id),
      false,
      'another user cannot delete it',
    );
    assert.equal(rowsWith(dbPath, 'memory_id', soft.memory_id).long_term_memories, 1);
  });

  it('a soft delete marks the memory deleted once and announces it once; forgetting it again changes nothing', async () => {
    const user = 'erase-soft';
    const memory = await t.core.storeMemory({
      user_id: user,
      content: 'Soft delete twice: the osprey dashboard',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const deleted: string[][] = [];
    const listening = t.core.onEvent((event) => {
      const change = event as { type: string; change?: string; memory_ids?: string[] };
      if (change.type === 'memory' && change.change === 'deleted') deleted.push(change.memory_ids ?? []);
    });
    try {
      await t.core.forgetMemory({ user_id: user, memory_id: memory.memory_id });
      const [first] = await t.store.getMemories(user, [memory.memory_id]);
      assert.ok(first?.deleted_at, 'the stored record is marked deleted');
      await t.core.forgetMemory({ user_id: user, memory_id: memory.memory_id });
      const [second] = await t.store.getMemories(user, [memory.memory_id]);
      assert.equal(second?.deleted_at, first.deleted_at, 'the deletion time is the first one');
      assert.deepEqual(deleted, [[memory.memory_id]], 'one announcement, naming the memory');
    } finally {
      listening.dispose();
    }
  });

  it('forget-all without the exact confirmation deletes nothing', async () => {
    const user = 'erase-unconfirmed';
    const kept = await t.core.storeMemory({
      user_id: user,
      content: 'Unconfirmed erasure keeps this',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    await assert.rejects(
      t.core.forgetAllMemories({ user_id: user, confirmation: 'yes' }),
      (error: Error & { code?: string; details?: Record<string, unknown> }) =>
        error.code === 'CONFIRMATION_REQUIRED' &&
        error.details?.field === 'confirmation' &&
        error.message.includes(user) &&
        error.message.includes(FORGET_ALL_CONFIRMATION),
    );
    await assert.rejects(
      t.core.forgetAllMemories({ user_id: '', confirmation: FORGET_ALL_CONFIRMATION }),
      (error: Error & { details?: Record<string, unknown> }) => error.details?.field === 'user_id',
    );
    await assert.rejects(
      t.core.forgetMemory({ user_id: user, memory_id: '', hard_delete: true }),
      (error: Error & { details?: Record<string, unknown> }) => error.details?.field === 'memory_id',
    );
    assert.equal(rowsWith(dbPath, 'memory_id', kept.memory_id).long_term_memories, 1);
  });

  it('forget-all answers how much it deleted, per kind', async () => {
    const user = 'erase-receipt';
    const session = await t.core.initSession({ user_id: user });
    await t.core.addToWorkingMemory({
      session_id: session.session_id,
      content: 'Receipt test working item',
      content_type: 'message',
    });
    await t.core.storeMemory({
      user_id: user,
      content: 'Receipt test memory one about herons',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    await t.core.storeMemory({
      user_id: user,
      content: 'Receipt test memory two about egrets',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    const receipt = await t.core.forgetAllMemories({ user_id: user, confirmation: FORGET_ALL_CONFIRMATION });
    assert.equal(receipt.memories_deleted, 2);
    assert.equal(receipt.sessions_deleted, 1);
    assert.equal(receipt.working_items_deleted, 1);
  });

  it('forget-all leaves no row of the user in any table, and no table holds their text', async () => {
    const user = 'erase-all';
    const other = 'erase-bystander';
    const session = await t.core.initSession({ user_id: user });
    await t.core.addToWorkingMemory({
      session_id: session.session_id,
      content: 'Looking at the xylophonist migration script',
      content_type: 'message',
    });
    await t.core.storeMemory({
      user_id: user,
      content: 'The xylophonist service owns the billing queue',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    await t.core.storeMemory({
      user_id: other,
      content: 'The bystander keeps the release calendar',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    await t.core.recall({ user_id: user, query: 'xylophonist billing' });
    await t.core.flushAccessLog();

    await t.core.forgetAllMemories({ user_id: user, confirmation: FORGET_ALL_CONFIRMATION });
    await t.core.flushAccessLog();

    const left = dataRows(rowsWith(dbPath, 'user_id', user));
    assert.deepEqual(
      Object.values(left).filter((count) => count > 0),
      [],
      `rows left: ${JSON.stringify(left)}`,
    );
    assert.ok(Object.keys(left).includes('session_contexts') && Object.keys(left).includes('working_memory_items'));
    assert.deepEqual(cellsContaining(dbPath, 'xylophonist'), []);
    assert.equal(rowsWith(dbPath, 'user_id', other).long_term_memories, 1, 'another user keeps their memory');
  });
});

describe('hard delete and erasure, checked in the persisted index files', () => {
  /** Stores two memories, builds the index, and closes, which writes the persisted index file. */
  async function persistedPair(user: string): Promise<{ dataDir: string; doomed: string; kept: string }> {
    const t = await createTestCore();
    const kept = await t.core.storeMemory({
      user_id: user,
      content: 'The build cache lives in .cache/turbo for the monorepo',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const doomed = await t.core.storeMemory({
      user_id: user,
      content: 'The quartermaster rotates the zanzibar credential',
      memory_category: 'semantic',
      memory_subtype: 'project',
      entities: ['Okapi-Entity'],
    });
    await t.core.recall({ user_id: user, query: 'quartermaster zanzibar' });
    await t.core.close();
    return { dataDir: t.dataDir, doomed: doomed.memory_id, kept: kept.memory_id };
  }
  const zanzibarTerm = analyzeQuery('zanzibar')[0]!.term;

  it("a hard-deleted memory's terms, id and tags are not left in any persisted index file", async () => {
    const user = 'erase-index-one';
    const { dataDir, doomed, kept } = await persistedPair(user);
    const dbPath = join(dataDir, 'memory.db');
    const t = await createTestCore({ dataDir });
    try {
      const before = indexFileBytes(dbPath);
      for (const needle of [zanzibarTerm, doomed, 'Okapi-Entity'])
        assert.ok(bytesContainText(before, needle), `the index file held ${needle} before the delete`);
      // Loaded from the file, then erased: the erasure must reach the file, not only the memory of this process.
      await t.core.recall({ user_id: user, query: 'quartermaster zanzibar' });
      await t.core.forgetMemory({ user_id: user, memory_id: doomed, hard_delete: true });
      for (const needle of [zanzibarTerm, doomed, 'Okapi-Entity'])
        assert.equal(bytesContainText(indexFileBytes(dbPath), needle), false, `${needle} is gone from the index files`);
      await t.core.close();
      const rewritten = indexFileBytes(dbPath);
      assert.ok(
        bytesContainText(rewritten, kept),
        'the index was written again at close, with the memory that was kept',
      );
      for (const needle of [zanzibarTerm, doomed, 'Okapi-Entity'])
        assert.equal(bytesContainText(rewritten, needle), false, `${needle} is not in the rewritten file`);
    } finally {
      await t.cleanup();
    }
  });

  it('a hard delete by another process removes the files this process wrote, and this process’s next save lacks the memory', async () => {
    const user = 'erase-index-other';
    const { dataDir, doomed } = await persistedPair(user);
    const dbPath = join(dataDir, 'memory.db');
    const holder = await createTestCore({ dataDir });
    const eraser = await createTestCore({ dataDir });
    try {
      await holder.core.recall({ user_id: user, query: 'quartermaster zanzibar' });
      assert.ok(bytesContainText(indexFileBytes(dbPath), zanzibarTerm));
      await eraser.core.forgetMemory({ user_id: user, memory_id: doomed, hard_delete: true });
      assert.equal(bytesContainText(indexFileBytes(dbPath), zanzibarTerm), false, 'the eraser removed the file');
      // The holder saves at close after catching up with the erasure: the new file lacks the memory too.
      await holder.core.close();
      assert.ok(indexFilePaths(dbPath).length > 0, 'the holder wrote its index again');
      assert.equal(bytesContainText(indexFileBytes(dbPath), zanzibarTerm), false);
      assert.equal(bytesContainText(indexFileBytes(dbPath), doomed), false);
    } finally {
      await holder.cleanup();
      await eraser.cleanup();
    }
  });

  it("forget-all removes the user's persisted index file", async () => {
    const user = 'erase-index-all';
    const { dataDir } = await persistedPair(user);
    const dbPath = join(dataDir, 'memory.db');
    const t = await createTestCore({ dataDir });
    try {
      assert.equal(indexFilePaths(dbPath).length, 1);
      await t.core.forgetAllMemories({ user_id: user, confirmation: FORGET_ALL_CONFIRMATION });
      assert.deepEqual(indexFilePaths(dbPath), []);
      await t.core.close();
      assert.equal(
        bytesContainText(indexFileBytes(dbPath), zanzibarTerm),
        false,
        'nothing of the user is saved again at close',
      );
    } finally {
      await t.cleanup();
    }
  });
});
