import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * SECURITY.md, "Memory poisoning": low-confidence memories (confidence below 0.8) are hidden from
 * recall and context by default. Memories on one topic at confidence 0.8 and just below it: the
 * first is found, the second only with include_low_confidence, in recall and in context alike.
 */
const USER = 'poisoning-user';
const QUESTION = 'Which port does the zebracorn billing gateway listen on?';

describe('memories under confidence 0.8 are hidden from recall and context unless asked for', () => {
  let test: TestCore;
  const ids: Record<string, string> = {};
  let sessionId: string;
  before(async () => {
    test = await createTestCore();
    for (const [label, confidence, port] of [
      ['at', 0.8, 8443],
      ['below', 0.7999, 9443],
      ['far below', 0.5, 7443],
    ] as const) {
      ids[label] = (
        await test.core.storeMemory({
          user_id: USER,
          content: `The zebracorn billing gateway listens on port ${port}.`,
          memory_category: 'semantic',
          memory_subtype: 'environment',
          confidence,
        })
      ).memory_id;
    }
    sessionId = (await test.core.initSession({ user_id: USER })).session_id;
  });
  after(() => test.cleanup());

  const recalled = async (includeLow?: boolean): Promise<string[]> =>
    (
      await test.core.recall({
        user_id: USER,
        query: QUESTION,
        ...(includeLow === undefined ? {} : { include_low_confidence: includeLow }),
      })
    ).memories.map((memory) => memory.memory_id);

  it('recall finds the memory at 0.8 and hides those below it', async () => {
    const found = await recalled();
    assert.ok(found.includes(ids.at!), 'the memory at 0.8 is found');
    assert.ok(!found.includes(ids.below!), 'the memory at 0.7999 is hidden');
    assert.ok(!found.includes(ids['far below']!), 'the memory at 0.5 is hidden');
    assert.deepEqual(await recalled(false), found, 'include_low_confidence: false is the default');
  });

  it('include_low_confidence shows them', async () => {
    const found = await recalled(true);
    for (const label of ['at', 'below', 'far below']) assert.ok(found.includes(ids[label]!), label);
  });

  it('get_relevant_context packs the memory at 0.8 and none below it', async () => {
    const context = await test.core.getRelevantContext({
      session_id: sessionId,
      user_id: USER,
      query: QUESTION,
      token_budget: 4_000,
    });
    const packed = context.context_items.map((item) => item.memory_id);
    assert.ok(packed.includes(ids.at!), JSON.stringify(packed));
    assert.ok(!packed.includes(ids.below!), 'the memory at 0.7999 is packed');
    assert.ok(!packed.includes(ids['far below']!), 'the memory at 0.5 is packed');
  });
});
