import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import type { MemoryRecord } from '../../src/core/domain/records.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { iso, makeMemory, newUserId } from '../contract/fixtures.ts';

// A collection on demand, so the heap is measured without the garbage of the calls before.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapAfterCollect(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const ROWS = 6_000;
const TOPICS = ['build cache', 'deploy pipeline', 'pelican migration', 'database index', 'release calendar'];

function memoriesOf(user: string, count: number): MemoryRecord[] {
  return Array.from({ length: count }, (_, index) =>
    makeMemory(user, {
      content: `Note ${index} about the ${TOPICS[index % TOPICS.length]} of team ${index % 9}`,
      tags: index % 4 === 0 ? [`t${index % 3}`] : [],
      entities: [`team ${index % 9}`],
      pinned: index % 11 === 0,
      source_session: `s${Math.floor(index / 20)}`,
      created_at: iso(index),
    }),
  );
}

/** What recall and the panels ask of a user's metas: filtered searches, facts, neighbours, listings. */
async function useEveryPath(store: SqliteMemoryStore, user: string, ids: readonly string[]): Promise<void> {
  for (const text of ['pelican migration', 'build cache team', 'release calendar note', 'database index'])
    await store.searchLexical({
      filter: { user_id: user, categories: ['semantic'] },
      terms: analyzeQuery(text),
      limit: 50,
    });
  await store.turnFacts(user, ids);
  await store.rankingFacts(user, ids);
  await store.adjacentMemories({ user_id: user }, ids.slice(0, 500), 3, 3_600_000);
  for (const sort of ['importance', 'recency', 'created', 'access_count'] as const)
    await store.listMemories({ filter: { user_id: user, state: 'all' }, sort, offset: 0, limit: 20 });
  await store.listMemories({ filter: { user_id: user, tags: ['t1'] }, sort: 'created', offset: 0, limit: 20 });
}

test('a store loaded from its persisted index keeps no object per memory through recalls, facts, neighbours and listings', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-meta-heap-'));
  const user = newUserId();
  const warmUser = newUserId();
  try {
    const writer = new SqliteMemoryStore({ dataDir });
    await writer.open();
    const memories = memoriesOf(user, ROWS);
    const warm = memoriesOf(warmUser, 200);
    await Promise.all([...memories, ...warm].map((memory) => writer.insertMemory(memory, null)));
    for (const owner of [user, warmUser])
      await writer.searchLexical({ filter: { user_id: owner }, terms: analyzeQuery('pelican'), limit: 5 });
    await writer.close();

    const store = new SqliteMemoryStore({ dataDir });
    await store.open();
    try {
      // The code paths run once on a small user first, so what they compile is not counted below.
      await useEveryPath(
        store,
        warmUser,
        warm.map((memory) => memory.memory_id),
      );
      await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('deploy'), limit: 5 });
      assert.equal(store.indexOrigin(user), 'persisted');
      const before = heapAfterCollect();
      await useEveryPath(
        store,
        user,
        memories.map((memory) => memory.memory_id),
      );
      // A process used to make every remaining meta a second after its first recall.
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      const grown = heapAfterCollect() - before;
      // One object per memory (24 fields, ~250 bytes, and its Map entry) would be about 1.7 MB here.
      assert.ok(grown < ROWS * 60, `the heap grew by ${grown} bytes over ${ROWS} memories`);
    } finally {
      await store.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
