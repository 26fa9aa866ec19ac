import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import { EPISODE_TAG } from '../../../src/core/episodes/conversationEpisodes.ts';
import type { ExtractedMemory, ExtractionInput, MemoryExtractor } from '../../../src/core/extraction/extractor.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/** Turn n of a conversation about the billing migration; turn 7 and turn 27 carry a decision. */
function turnText(n: number): string {
  if (n === 7) return 'We decided to move the billing tables to Postgres 16 before the March release.';
  if (n === 27) return 'We agreed on running the billing migration with dbmate in two steps.';
  const topic = TOPICS[n % TOPICS.length];
  return n % 2 === 1
    ? `How does the billing export treat ${topic} in run ${n}?`
    : `In run ${n} the billing export writes ${topic} to its own ledger table and alerts finance.`;
}

/** Distinct subjects, so no two turns are near-duplicates that long-term memory would merge. */
const TOPICS = [
  'refunds',
  'chargebacks',
  'coupons',
  'invoices with VAT',
  'trial credits',
  'currency rounding',
  'late fees',
  'partial captures',
  'disputes',
  'gift cards',
  'annual plans',
];

async function summaries(t: TestCore, userId: string): Promise<MemoryRecord[]> {
  const listed = await t.store.listMemories({
    filter: { user_id: userId, tags: [EPISODE_TAG] },
    sort: 'created',
    offset: 0,
    limit: 100,
  });
  return [...listed.items].sort(
    (a, b) =>
      (a.metadata.episode as { turn_end: number }).turn_end - (b.metadata.episode as { turn_end: number }).turn_end,
  );
}

describe('episodic summaries every 20 turns (seed 002)', () => {
  let t: TestCore;
  beforeEach(async () => {
    t = await createTestCore();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const converse = async (userId: string, turns: number, options: { max_tokens?: number } = {}) => {
    const { session_id } = await t.core.initSession({
      user_id: userId,
      ...(options.max_tokens ? { config: { max_tokens: options.max_tokens } } : {}),
    });
    for (let n = 1; n <= turns; n++) {
      await t.core.addToWorkingMemory({ session_id, content: turnText(n), content_type: 'message' });
      // Notes are not conversation turns and do not advance the count.
      if (n % 5 === 0)
        await t.core.addToWorkingMemory({ session_id, content: `scratch note ${n}`, content_type: 'scratchpad' });
    }
    await t.core.drainBackgroundWork();
    await t.core.drainBackgroundWork();
    return session_id;
  };

  it('stores one summary per 20 turns, in addition to the turns, with the offline extractor', async () => {
    const sessionId = await converse('ep', 19);
    assert.deepEqual(await summaries(t, 'ep'), []);
    await t.core.addToWorkingMemory({ session_id: sessionId, content: turnText(20), content_type: 'message' });
    await t.core.drainBackgroundWork();
    const [first] = await summaries(t, 'ep');
    assert.ok(first, 'a summary after turn 20');
    assert.deepEqual(
      [first.memory_category, first.memory_subtype, first.source_session, first.source_type],
      ['episodic', 'conversation', sessionId, 'inferred'],
    );
    assert.deepEqual(first.metadata.episode, {
      session_id: sessionId,
      turn_start: 1,
      turn_end: 20,
      turns_included: 20,
      summarized_by: 'rules',
    });
    assert.match(first.content, /^Conversation turns 1–20: /);
    assert.match(first.content, /decided to move the billing tables to Postgres 16/);
    const items = (await t.core.getWorkingMemory({ session_id: sessionId })).items.filter(
      (item) => item.content_type === 'message',
    );
    assert.equal(items.length, 20, 'every turn is still in working memory');
  });

  it('numbers turns per session across 40 turns and summarises each run once', async () => {
    await converse('ep2', 40);
    const stored = await summaries(t, 'ep2');
    assert.deepEqual(
      stored.map((memory) => [
        (memory.metadata.episode as { turn_start: number }).turn_start,
        (memory.metadata.episode as { turn_end: number }).turn_end,
      ]),
      [
        [1, 20],
        [21, 40],
      ],
    );
    assert.match(stored[1].content, /agreed on running the billing migration with dbmate/);
    assert.doesNotMatch(stored[1].content, /Postgres 16/);
  });

  it('reads turns already evicted to long-term memory, which keep their own memories', async () => {
    // A budget of a few turns: most of the run is evicted and promoted before turn 20 arrives.
    const sessionId = await converse('ep3', 20, { max_tokens: 120 });
    const [summary] = await summaries(t, 'ep3');
    assert.equal((summary.metadata.episode as { turns_included: number }).turns_included, 20);
    assert.match(summary.content, /Postgres 16/);
    const promoted = await t.store.listMemories({
      filter: { user_id: 'ep3', source_types: ['working_memory'] },
      sort: 'created',
      offset: 0,
      limit: 100,
    });
    assert.ok(
      promoted.items.some((memory) => memory.source_session === sessionId && memory.metadata.conversation_turn === 7),
      'the evicted decision turn is its own long-term memory',
    );
  });

  it('uses the language model the server runs, and the offline rules when it fails', async () => {
    const model: MemoryExtractor & { seen: string[] } = {
      name: 'model:test',
      seen: [],
      async extract(input: ExtractionInput): Promise<ExtractedMemory[]> {
        this.seen.push(input.context?.source ?? '');
        if (input.context?.source !== 'conversation-episode') return [];
        return [
          {
            content: 'The team planned the billing move to Postgres',
            category: 'episodic',
            subtype: 'decision',
            importance: 0.7,
            entities: [],
            is_temporal: true,
          },
        ];
      },
    };
    await t.core.startExtraction(model);
    await converse('ep4', 20);
    const [summary] = await summaries(t, 'ep4');
    assert.equal(summary.content, 'Conversation turns 1–20: The team planned the billing move to Postgres.');
    assert.equal((summary.metadata.episode as { summarized_by: string }).summarized_by, 'model:test');

    await t.core.startExtraction({
      name: 'model:down',
      extract: async () => {
        throw new MemoryError('PROVIDER_ERROR', 'model unreachable');
      },
    });
    await converse('ep5', 20);
    const [fallback] = await summaries(t, 'ep5');
    assert.equal((fallback.metadata.episode as { summarized_by: string }).summarized_by, 'rules');
    assert.match(fallback.content, /Postgres 16/);
  });
});
