import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { extractEntities } from '../../../src/core/entities/extractEntities.ts';
import { DEFAULT_LINK_THRESHOLD, relatedness } from '../../../src/core/lifecycle/relatedness.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';
import { LINK_TARGET, RELATED_TO_TARGET, UNRELATED_TO_TARGET } from './relatedMemoriesFixture.ts';

const memo = (content: string) => ({ content, entities: extractEntities(content), tags: [] });

test('the default link threshold separates memories about the same topic from the rest', () => {
  const target = memo(LINK_TARGET);
  for (const content of RELATED_TO_TARGET) {
    assert.ok(
      relatedness(target, memo(content)) >= DEFAULT_LINK_THRESHOLD,
      `related but below ${DEFAULT_LINK_THRESHOLD}: ${content}`,
    );
  }
  for (const content of UNRELATED_TO_TARGET) {
    assert.ok(
      relatedness(target, memo(content)) < DEFAULT_LINK_THRESHOLD,
      `unrelated but at or above ${DEFAULT_LINK_THRESHOLD}: ${content}`,
    );
  }
});

test('stored embeddings of one model decide when both memories have them', () => {
  const a = { model: 'm', vector: new Float32Array([1, 0]) };
  const b = { model: 'm', vector: new Float32Array([1, 0]) };
  assert.equal(relatedness(memo('alpha'), memo('omega'), { a, b }), 1);
  assert.equal(relatedness(memo('alpha'), memo('omega'), { a, b: { ...b, model: 'other' } }), 0);
});

describe('auto_link_similar in the store', () => {
  let t: TestCore;
  before(async () => {
    t = await createTestCore();
  });
  after(async () => {
    await t.cleanup();
  });

  it('links every related memory and none of the unrelated ones, on both sides of each link', async () => {
    const store = async (content: string) =>
      (await t.core.storeMemory({ user_id: 'links', content, memory_category: 'semantic', memory_subtype: 'project' }))
        .memory_id;
    const target = await store(LINK_TARGET);
    const related = [];
    for (const content of RELATED_TO_TARGET) related.push(await store(content));
    const unrelated = [];
    for (const content of UNRELATED_TO_TARGET) unrelated.push(await store(content));

    const result = await t.core.autoLinkSimilar({ user_id: 'links', memory_id: target });
    assert.deepEqual(new Set(result.linked.map((entry) => entry.memory_id)), new Set(related));
    const stored = await t.core.getMemory('links', target);
    assert.deepEqual(new Set(stored.related_memories), new Set(related));
    for (const id of related)
      assert.ok((await t.core.getMemory('links', id)).related_memories.includes(target), `link not stored on ${id}`);
    for (const id of unrelated) assert.deepEqual((await t.core.getMemory('links', id)).related_memories, []);
  });
});
