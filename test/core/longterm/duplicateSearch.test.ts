import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { duplicateProbeOf } from '../../../src/core/longterm/duplicateProbe.ts';
import { DuplicateSearch, dedupTerms } from '../../../src/core/longterm/duplicateSearch.ts';
import { textSimilarity } from '../../../src/core/longterm/textSimilarity.ts';
import type { MemoryStore } from '../../../src/core/ports/memoryStore.ts';
import { rowWatchingStore } from '../../support/rowWatchingStore.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';
import { makeMemory } from '../../contract/fixtures.ts';

/**
 * A store_memory's duplicate search scores its candidates on their text and a few columns
 * (MemoryStore.duplicateCandidates) and reads a full row only for the closest, when it reaches
 * the floor (the similarity a store reports or merges at).
 */
describe('the duplicate search of a store', () => {
  let test: TestCore;
  let users = 0;

  before(async () => {
    test = await createTestCore();
  });
  after(() => test.cleanup());

  const CONTENT = 'The billing service retries failed card payments three times with exponential backoff';
  const NEAR = 'The billing service retries failed card payments three times with linear backoff';

  async function fiveCandidates(): Promise<{ user: string; near: string }> {
    const user = `dedup_${users++}`;
    const others = [
      'The billing service sends invoices on the first day of the month',
      'Card payments are processed by the payments gateway',
      'Failed jobs are retried three times by the queue',
      'Exponential backoff caps at one minute',
    ];
    for (const content of others) await test.store.insertMemory(makeMemory(user, { content }), null);
    const near = makeMemory(user, { content: NEAR });
    await test.store.insertMemory(near, null);
    return { user, near: near.memory_id };
  }

  /** The search over the test store; every full row read is counted, and `afterCandidates` runs once the candidates are read. */
  function search(user: string, afterCandidates?: () => Promise<void>) {
    const watched = rowWatchingStore(test.store);
    const rowsRead = watched.rowsRead;
    const store: MemoryStore = new Proxy(watched.store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property !== 'duplicateCandidates' || afterCandidates === undefined) return value;
        return async (...args: Parameters<MemoryStore['duplicateCandidates']>) => {
          const answer = await target.duplicateCandidates(...args);
          await afterCandidates();
          return answer;
        };
      },
    });
    const probe = duplicateProbeOf({
      scope: { layer: 'user', scope_id: user },
      project_id: null,
      content: CONTENT,
      terms: dedupTerms(CONTENT),
      embedding: null,
      fact: null,
    });
    const duplicates = new DuplicateSearch({ ...test.deps, store });
    return { find: (floor: number) => duplicates.findMostSimilar(user, probe, floor), rowsRead };
  }

  it('reads the full row of the closest candidate only, scored as its text compares', async () => {
    const { user, near } = await fiveCandidates();
    const { find, rowsRead } = search(user);
    const found = await find(0.8);
    assert.equal(found?.memory.memory_id, near);
    assert.equal(found?.memory.content, NEAR);
    assert.equal(found?.similarity, textSimilarity(CONTENT, NEAR));
    assert.deepEqual(rowsRead, [near]);
  });

  it('reads no full row when even the closest is below the floor', async () => {
    const { user } = await fiveCandidates();
    const { find, rowsRead } = search(user);
    assert.ok(textSimilarity(CONTENT, NEAR) < 0.95);
    assert.equal(await find(0.95), null);
    assert.deepEqual(rowsRead, []);
  });

  it('returns nothing when the closest is forgotten between the candidates and its full row', async () => {
    const { user, near } = await fiveCandidates();
    const { find } = search(user, async () => {
      await test.store.forgetMemories(user, [near], new Date().toISOString());
    });
    assert.equal(await find(0.8), null);
  });
});
