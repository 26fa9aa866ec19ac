import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import type { ListQuery } from '../../src/core/ports/memoryStore.ts';
import { SqliteMemoryStore, type SqliteMemoryStoreOptions } from '../../src/stores/sqlite/sqliteStore.ts';
import { iso, makeMemory, newUserId } from '../contract/fixtures.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

async function opened(dataDir: string, options: Partial<SqliteMemoryStoreOptions> = {}): Promise<SqliteMemoryStore> {
  const store = new SqliteMemoryStore({ dataDir, ...options });
  await store.open();
  return store;
}

/** The ids a pinned listing and a tag listing return, as a store answers them. */
async function listed(store: SqliteMemoryStore, user: string): Promise<string[][]> {
  const page = (filter: Omit<ListQuery['filter'], 'user_id'>): ListQuery => ({
    filter: { user_id: user, ...filter },
    sort: 'created',
    offset: 0,
    limit: 100,
  });
  return [
    (await store.listMemories(page({ pinned: true }))).items.map((memory) => memory.memory_id),
    (await store.listMemories(page({ tags: ['t1'] }))).items.map((memory) => memory.memory_id),
    (await store.listMemories(page({ tags: ['t0', 'late'] }))).items.map((memory) => memory.memory_id),
  ];
}

it('a loaded index makes its pinned and tag sets when first listed, with every change made before and after', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-tagsets-'));
  try {
    const user = newUserId();
    const writer = await opened(dataDir);
    const memories = Array.from({ length: 30 }, (_, index) =>
      makeMemory(user, {
        content: `Note ${index} on the pelican migration`,
        tags: [`t${index % 3}`],
        pinned: index % 4 === 0,
        created_at: iso(index),
      }),
    );
    for (const memory of memories) await writer.insertMemory(memory, null);
    await writer.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('pelican'), limit: 5 });
    await writer.close();

    const loaded = await opened(dataDir);
    try {
      await loaded.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('pelican'), limit: 5 });
      assert.equal(loaded.indexOrigin(user), 'persisted');
      // Before any listing by pin or tag: a pin, a tag taken off, one added, a forget, a new memory.
      await rewriteMemory(loaded, { ...memories[1]!, pinned: true });
      await rewriteMemory(loaded, { ...memories[4]!, tags: [] });
      await rewriteMemory(loaded, { ...memories[7]!, tags: ['t1', 'late'] });
      await loaded.forgetMemories(user, [memories[8]!.memory_id], iso(50));
      const added = makeMemory(user, {
        content: 'Added after the load',
        tags: ['t1'],
        pinned: true,
        created_at: iso(60),
      });
      await loaded.insertMemory(added, null);
      const first = await listed(loaded, user);
      assert.ok(first[0]!.includes(memories[1]!.memory_id) && first[0]!.includes(added.memory_id));
      assert.ok(!first[0]!.includes(memories[8]!.memory_id), 'a forgotten memory is not listed');
      assert.ok(!first[1]!.includes(memories[4]!.memory_id) && first[1]!.includes(memories[7]!.memory_id));
      // And after the sets exist: they follow changes as before.
      await rewriteMemory(loaded, { ...memories[1]!, pinned: false, tags: ['late'] });
      await rewriteMemory(loaded, { ...memories[0]!, pinned: false });
      const second = await listed(loaded, user);

      const rebuilt = await opened(dataDir, { persistedIndexes: false });
      try {
        assert.deepEqual(second, await listed(rebuilt, user), 'the loaded sets list what sets built from the rows do');
        assert.ok(!second[0]!.includes(memories[1]!.memory_id) && second[2]!.includes(memories[1]!.memory_id));
      } finally {
        await rebuilt.close();
      }
    } finally {
      await loaded.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
