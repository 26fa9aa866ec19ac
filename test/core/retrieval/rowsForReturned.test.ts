import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Recall } from '../../../src/core/retrieval/recall.ts';
import { rowWatchingStore } from '../../support/rowWatchingStore.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/**
 * Recall ranks its candidates on their ranking facts (MemoryStore.rankingFacts) and reads full rows
 * only for the memories it returns: a recall of 3 among 40 matching memories reads 3 rows, not 40.
 */
describe('full rows only for the memories recall returns', () => {
  let test: TestCore;
  let users = 0;

  before(async () => {
    test = await createTestCore();
  });
  after(() => test.cleanup());

  /** Forty memories that all match "deploy pipeline", in varied words, so they score differently. */
  async function memories(): Promise<{ user: string; ids: string[] }> {
    const user = `rows_${users++}`;
    const ids: string[] = [];
    for (let index = 0; index < 40; index++) {
      const stored = await test.core.storeMemory({
        user_id: user,
        content: `The deploy pipeline step ${index} ${'runs the pipeline again '.repeat(index % 4)}after review ${index}.`,
        memory_category: 'semantic',
        memory_subtype: 'project',
        importance: (index % 10) / 10,
      });
      ids.push(stored.memory_id);
    }
    return { user, ids };
  }

  /** A recall over the core's store that counts every full row read, `onFacts` run after each rankingFacts call. */
  function watched(onFacts?: (ids: readonly string[]) => Promise<void>) {
    const { store, rowsRead } = rowWatchingStore(test.store, onFacts ? { rankingFacts: onFacts } : {});
    return { recall: new Recall({ ...test.deps, store }), rowsRead };
  }

  const ask = (recall: Recall, user: string, limit: number) =>
    recall.recall(
      { user_id: user, query: 'deploy pipeline', min_similarity: 0, limit },
      { tool: 'test', logAccess: false, announce: false },
    );

  it('reads the rows of the returned memories and of no other candidate', async () => {
    const { user } = await memories();
    const { recall, rowsRead } = watched();
    const result = await ask(recall, user, 3);
    const returned = result.memories.map((memory) => memory.memory_id);
    assert.equal(returned.length, 3);
    assert.ok(result.retrieval_breakdown.candidates_considered >= 40, 'every memory was a candidate');
    assert.deepEqual([...rowsRead].sort(), [...returned].sort(), 'one row read per returned memory, none for the rest');
    for (const memory of result.memories) assert.match(memory.content, /deploy pipeline step/);
  });

  it('answers at a small limit with the top of its answer at a large one, reading one row per memory returned', async () => {
    const { user } = await memories();
    const wide = await ask(watched().recall, user, 40);
    for (const limit of [1, 5, 17]) {
      const { recall, rowsRead } = watched();
      const narrow = await ask(recall, user, limit);
      assert.deepEqual(narrow.memories, wide.memories.slice(0, limit), `limit ${limit}`);
      assert.equal(rowsRead.length, limit);
    }
  });

  for (const action of ['forgotten', 'erased'] as const) {
    it(`never returns a memory ${action} after it was ranked, and gives its place to the next one`, async () => {
      const { user } = await memories();
      const expected = (await ask(watched().recall, user, 4)).memories.map((memory) => memory.memory_id);
      const victim = expected[1]!;
      let done = false;
      const { recall } = watched(async () => {
        if (done) return;
        done = true;
        if (action === 'forgotten') await test.store.forgetMemories(user, [victim], new Date().toISOString());
        else assert.equal(await test.store.hardDeleteMemory(user, victim), true);
      });
      const result = await ask(recall, user, 3);
      assert.ok(done, 'the removal ran between ranking and reading the rows');
      const ids = result.memories.map((memory) => memory.memory_id);
      assert.deepEqual(ids, [expected[0], expected[2], expected[3]], `the ${action} memory's place goes to the next`);
    });
  }
});
