import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Recall } from '../../../src/core/retrieval/recall.ts';
import { rowWatchingStore, type AfterCallHooks } from '../../support/rowWatchingStore.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/**
 * Neighbour expansion decides on the store's turn facts and reads full rows only for the
 * neighbours it returns; a neighbour forgotten or erased while a recall runs is never returned.
 */
describe('neighbour expansion on turn facts', () => {
  let test: TestCore;
  let users = 0;

  before(async () => {
    test = await createTestCore();
  });
  after(() => test.cleanup());

  /** One conversation of five turns; the middle one asks the question the recall is about. */
  async function conversation(): Promise<{ user: string; turns: string[] }> {
    const user = `turns_${users++}`;
    const turns: string[] = [];
    for (const content of [
      'Ida said, "Morning, I just got back."',
      'Ida said, "I was out all day."',
      'Jo said, "Which trail did you hike at the lake?"',
      'Ida said, "The north ridge, it took four hours."',
      'Jo said, "Sounds long."',
    ]) {
      const stored = await test.core.storeMemory({
        user_id: user,
        content,
        memory_category: 'episodic',
        memory_subtype: 'conversation',
        metadata: { conversation_id: 'hike' },
      });
      turns.push(stored.memory_id);
    }
    return { user, turns };
  }

  /** A recall over the core's store with `hooks` run after the named port calls return, and the ids of every full row read. */
  function watched(hooks: AfterCallHooks) {
    const { store, rowsRead } = rowWatchingStore(test.store, hooks);
    return { recall: new Recall({ ...test.deps, store }), rowsRead };
  }

  const ask = (recall: Recall, user: string, candidateLimit?: number) =>
    recall.recall(
      { user_id: user, query: 'which trail at the lake', min_similarity: 0, limit: 5 },
      { tool: 'test', logAccess: false, announce: false, candidateLimit },
    );

  it('reads the full rows of the neighbours it returns only, not of every neighbour it looked at', async () => {
    const { user, turns } = await conversation();
    const { recall, rowsRead } = watched({});
    // A pool of two: the question and its reply are scored; the other turns are reached but not kept.
    const result = await ask(recall, user, 2);
    const ids = result.memories.map((memory) => memory.memory_id);
    assert.deepEqual(ids, [turns[2], turns[3]]);
    assert.ok(result.memories[1]!.score_breakdown.signals.includes('neighbour'));
    for (const unreturned of [turns[0], turns[1], turns[4]])
      assert.ok(!rowsRead.includes(unreturned!), `no row read for a neighbour not returned: ${rowsRead.join(', ')}`);

    const all = await ask(watched({}).recall, user);
    assert.deepEqual(
      new Set(all.memories.map((memory) => memory.memory_id)),
      new Set(turns),
      'with the default pool every turn is reached',
    );
  });

  for (const [when, action] of [
    ['after its neighbours are found', 'forgotten'],
    ['after its neighbours are found', 'erased'],
    ['after their facts are read', 'forgotten'],
    ['after their facts are read', 'erased'],
  ] as const) {
    it(`never returns a neighbour ${action} ${when}`, async () => {
      const { user, turns } = await conversation();
      const reply = turns[3]!;
      const remove = async (): Promise<void> => {
        if (action === 'forgotten') await test.store.forgetMemories(user, [reply], new Date().toISOString());
        else assert.equal(await test.store.hardDeleteMemory(user, reply), true);
      };
      let done = false;
      const once = async (ids: readonly string[]): Promise<void> => {
        if (done || (when === 'after their facts are read' && !ids.includes(reply))) return;
        done = true;
        await remove();
      };
      const { recall } = watched(
        when === 'after its neighbours are found' ? { adjacentMemories: once } : { turnFacts: once },
      );
      const result = await ask(recall, user);
      assert.ok(done, 'the removal ran during the recall');
      const ids = result.memories.map((memory) => memory.memory_id);
      assert.equal(ids[0], turns[2], 'the question itself still answers');
      assert.ok(!ids.includes(reply), `the ${action} reply is not returned: ${ids.join(', ')}`);
    });
  }
});
