import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rankingFactsOf } from '../../src/core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../src/core/domain/records.ts';
import { scoreMemory } from '../../src/core/retrieval/relevance.ts';
import { memoryRecord } from '../support/memoryRecord.ts';
import { createTestCore } from '../support/testCore.ts';
import type { TestCore } from '../support/testCore.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

/** README (Memory lifecycle): decay lowers a memory's rank without deleting it. */
describe('decay lowers rank', () => {
  let t: TestCore;
  before(async () => {
    t = await createTestCore();
  });
  after(() => t.cleanup());

  async function recallOrder(user: string, decayed: MemoryRecord, factor: number): Promise<string[]> {
    await rewriteMemory(t.store, { ...decayed, decay_factor: factor });
    const result = await t.core.recall({ user_id: user, query: 'staging database migration window' });
    return result.memories.map((memory) => memory.memory_id);
  }

  it('of two equally matching memories, the decayed one ranks below the fresh one, whichever it is', async () => {
    const user = 'decay-rank';
    const a = await t.core.storeMemory({
      user_id: user,
      content: 'The staging database migration window is Tuesday night',
      memory_category: 'semantic',
      memory_subtype: 'project',
      importance: 0.8,
    });
    const b = await t.core.storeMemory({
      user_id: user,
      content: 'The staging database migration window is Thursday night',
      memory_category: 'semantic',
      memory_subtype: 'project',
      importance: 0.8,
    });
    const [first, second] = await t.core
      .getMemories(user, [a.memory_id, b.memory_id])
      .then((found) =>
        [a, b].map((want) => found.find((memory) => memory.memory_id === want.memory_id) as MemoryRecord),
      );

    const aDecayed = await recallOrder(user, first, 0.05);
    assert.ok(aDecayed.indexOf(b.memory_id) < aDecayed.indexOf(a.memory_id), `a decayed: ${aDecayed.join(', ')}`);
    await rewriteMemory(t.store, { ...first, decay_factor: 1 });
    const bDecayed = await recallOrder(user, second, 0.05);
    assert.ok(bDecayed.indexOf(a.memory_id) < bDecayed.indexOf(b.memory_id), `b decayed: ${bDecayed.join(', ')}`);
    assert.ok(
      aDecayed.includes(a.memory_id) && bDecayed.includes(b.memory_id),
      'decay reorders; it does not hide a match',
    );
  });

  it('the score and its breakdown carry importance times the decay factor; a pinned memory ignores decay', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const base = memoryRecord(now.toISOString(), { importance: 0.8 });
    const facts = (memory: MemoryRecord) => rankingFactsOf(memory);
    const match = { text: 0.7, semantic: null, matched_terms: ['x'], matched_entities: [], entity_share: 0 };
    const fresh = scoreMemory(facts(base), match, 1, now);
    const decayed = scoreMemory(facts({ ...base, decay_factor: 0.25 }), match, 1, now);
    assert.equal(decayed.breakdown.importance, 0.2);
    assert.ok(decayed.score < fresh.score, `${decayed.score} < ${fresh.score}`);
    const pinned = scoreMemory(facts({ ...base, decay_factor: 0.25, pinned: true }), match, 1, now);
    assert.equal(pinned.breakdown.importance, 1);
  });
});
