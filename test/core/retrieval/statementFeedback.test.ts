import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  feedbackAgreement,
  feedbackWords,
  relevanceModel,
  withFeedback,
} from '../../../src/core/retrieval/statementFeedback.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

const doc = (entries: Record<string, number>) => {
  const terms = new Map(Object.entries(entries));
  return { terms, length: [...terms.values()].reduce((sum, tf) => sum + tf, 0) };
};

describe('statement feedback: the relevance model', () => {
  it('weighs the voters by score and leaves out the question’s own words', () => {
    const model = relevanceModel(
      [
        { score: 3, document: doc({ retri: 1, backoff: 1 }) },
        { score: 1, document: doc({ retri: 1, flaki: 1 }) },
      ],
      new Set(['retri']),
    );
    assert.equal(model.has('retri'), false);
    assert.ok(Math.abs(model.get('backoff')! - 0.375) < 1e-9, 'share 3/4 of tf 1 in a document of 2');
    assert.ok(Math.abs(model.get('flaki')! - 0.125) < 1e-9);
  });

  it('keeps the strongest informative words only', () => {
    const model = new Map([
      ['backoff', 0.4],
      ['servic', 0.5],
      ['flaki', 0.1],
    ]);
    const idf = (term: string) => (term === 'servic' ? 0.1 : 2);
    assert.deepEqual(feedbackWords(model, idf, 1), [['backoff', 0.4]], 'a word in most memories is no evidence');
  });

  it('measures agreement as the share of the words’ weight a document carries, and blends it into the tie-break', () => {
    const words: Array<[string, number]> = [
      ['backoff', 3],
      ['worker', 1],
    ];
    assert.equal(feedbackAgreement(doc({ backoff: 2 }), words), 0.75);
    assert.equal(feedbackAgreement(doc({ other: 1 }), words), 0);
    assert.ok(Math.abs(withFeedback(1, 0) - 0.7) < 1e-9);
    assert.ok(Math.abs(withFeedback(0, 1) - 0.3) < 1e-9);
  });
});

describe('statement feedback in recall', () => {
  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    const store = (content: string) =>
      test.core.storeMemory({ user_id: user, content, memory_category: 'semantic', memory_subtype: 'project' });
    await store('Card charge retries use exponential backoff in the payments worker.');
    await store('Card charge retries stop after five attempts in the payments worker with backoff.');
    await store('Retries of flaky browser tests are allowed twice.');
    await store(
      'Retries in the payments worker wait with exponential backoff between attempts, counted per merchant account and reset every day at midnight.',
    );
    for (const topic of [
      'the docs site',
      'release notes',
      'font loading',
      'log levels',
      'feature flags',
      'the on-call rota',
    ])
      await store(`The team keeps ${topic} in the wiki.`);
  });
  after(() => test.cleanup());

  it('ranks a statement that shares the best matches’ topic before one that only shares a word', async () => {
    const result = await test.core.recall({ user_id: user, query: 'card charge retries', min_similarity: 0 });
    const order = result.memories.map((memory) => memory.content);
    const payments = order.findIndex((content) => content.startsWith('Retries in the payments worker'));
    const browser = order.findIndex((content) => content.startsWith('Retries of flaky browser tests'));
    assert.ok(payments >= 0 && browser >= 0, order.join(' | '));
    assert.ok(payments < browser, `the payments retry memory ranks before the browser one: ${order.join(' | ')}`);
    assert.ok(!result.memories[payments].why_matched.includes('backoff'), 'feedback words are not matches');
  });

  it('does not let feedback lift a memory over the floor', async () => {
    const ranked = await test.core.recall({ user_id: user, query: 'card charge retries', min_similarity: 0 });
    const payments = ranked.memories.find((memory) => memory.content.startsWith('Retries in the payments worker'))!;
    // A floor at the score feedback gave it: the question's own words earned less, so it does not clear it.
    const floored = await test.core.recall({
      user_id: user,
      query: 'card charge retries',
      min_similarity: payments.relevance_score - 0.001,
    });
    const again = floored.memories.find((memory) => memory.content === payments.content);
    assert.ok(again === undefined || again.score_breakdown.signals.includes('partial'), 'kept only as a partial match');
    assert.ok(
      floored.memories.some((memory) => memory.content.startsWith('Card charge')),
      'the full matches clear it',
    );
  });
});
