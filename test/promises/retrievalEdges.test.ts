import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Clock } from '../../src/core/ports/clock.ts';
import type { EmbeddingProvider } from '../../src/core/ports/embeddingProvider.ts';
import type { LexicalQuery } from '../../src/core/ports/memoryStore.ts';
import { applyRelevanceFloor } from '../../src/core/retrieval/relevanceFloor.ts';
import { parseTimeExpressions } from '../../src/core/retrieval/timeExpressions.ts';
import { createTestCore } from '../support/testCore.ts';

/**
 * The retrieval pipeline's documented numbers (docs/retrieval.md steps 1, 5, 6, 8 and 9), each with
 * a fixture on both sides of its edge: a rounding or off-by-a-little bug there fails here. The
 * numbers are written out, not read from the code's constants, so a changed constant fails too.
 */

/** Vectors chosen per text: the query is e0, a memory's text sits at the cosine the test names. */
class ChosenVectors implements EmbeddingProvider {
  readonly kind = 'chosen vectors (test)';
  readonly model = 'chosen-8';
  readonly dimensions = 8;
  private readonly chosen = new Map<string, Float32Array>();

  at(text: string, similarity: number): void {
    const vector = new Float32Array(this.dimensions);
    vector[0] = similarity;
    vector[2] = Math.sqrt(1 - similarity * similarity);
    this.chosen.set(text, vector);
  }
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map(
      (text) => this.chosen.get(text) ?? Float32Array.from({ length: this.dimensions }, (_, i) => (i === 0 ? 1 : 0)),
    );
  }
}

describe('retrieval at its documented edges', () => {
  for (const [limit, asked] of [
    [12, 50],
    [13, 52],
  ] as const) {
    it(`a recall of limit ${limit} asks full-text for ${asked} candidates (four times the limit, at least 50)`, async () => {
      const test = await createTestCore();
      try {
        await test.core.storeMemory({
          user_id: 'pool',
          content: 'The importer retries each batch three times.',
          memory_category: 'semantic',
          memory_subtype: 'project',
        });
        const limits: number[] = [];
        // Recall asks through searchLexicalWithStatistics when it also needs the terms' statistics.
        const search = test.store.searchLexical.bind(test.store);
        test.store.searchLexical = (query: LexicalQuery) => {
          limits.push(query.limit);
          return search(query);
        };
        const searchWithStatistics = test.store.searchLexicalWithStatistics.bind(test.store);
        test.store.searchLexicalWithStatistics = (query: LexicalQuery, terms: readonly string[]) => {
          limits.push(query.limit);
          return searchWithStatistics(query, terms);
        };
        await test.core.recall({ user_id: 'pool', query: 'importer retries', limit }, { logAccess: false });
        assert.deepEqual(limits, [asked]);
      } finally {
        await test.cleanup();
      }
    });
  }

  for (const [similarity, found] of [
    [0.7005, true],
    [0.6995, false],
  ] as const) {
    it(`a memory found only by its vector at similarity ${similarity} is ${found ? 'returned' : 'not returned'} (bar 0.7)`, async () => {
      const vectors = new ChosenVectors();
      const test = await createTestCore({ embeddings: vectors });
      try {
        const content = 'Quarterly invoices reconcile against the ledger export';
        vectors.at(content, similarity);
        const { memory_id } = await test.core.storeMemory({
          user_id: 'v',
          content,
          memory_category: 'semantic',
          memory_subtype: 'project',
        });
        const result = await test.core.recall({ user_id: 'v', query: 'zygomorphic petunias' }, { logAccess: false });
        assert.deepEqual(
          result.memories.map((memory) => memory.memory_id),
          found ? [memory_id] : [],
        );
      } finally {
        await test.cleanup();
      }
    });
  }

  for (const [gapMs, joined] of [
    [2 * 3_600_000, true],
    [2 * 3_600_000 + 1000, false],
  ] as const) {
    it(`a turn stored ${gapMs === 7_200_000 ? 'exactly two hours' : 'two hours and a second'} after the matching turn of its conversation is ${joined ? 'its neighbour' : 'not its neighbour'}`, async () => {
      let at = Date.parse('2026-03-01T09:00:00Z');
      const clock: Clock = { now: () => new Date(at) };
      const test = await createTestCore({ clock });
      try {
        const turn = (content: string) =>
          test.core
            .storeMemory({
              user_id: 'talk',
              content,
              memory_category: 'episodic',
              memory_subtype: 'conversation',
              metadata: { conversation_id: 'c1' },
            })
            .then((stored) => stored.memory_id);
        const question = await turn('Alice said, "Where did you go hiking last weekend?"');
        at += gapMs;
        const reply = await turn('Bob said, "Up the ridge trail near the lake."');
        const result = await test.core.recall(
          { user_id: 'talk', query: 'where did Alice go hiking', min_similarity: 0 },
          { logAccess: false },
        );
        assert.equal(result.memories[0]?.memory_id, question);
        const lent = result.memories.find((memory) => memory.memory_id === reply);
        assert.equal(lent?.score_breakdown.signals.includes('neighbour') ?? false, joined);
      } finally {
        await test.cleanup();
      }
    });
  }

  for (const [offsetMs, boosted] of [
    [3.5 * 86_400_000 - 60_000, true],
    [3.5 * 86_400_000 + 60_000, false],
  ] as const) {
    it(`a memory ${boosted ? 'a minute inside' : 'a minute outside'} 3.5 days of "two weeks ago" ${boosted ? 'gets' : 'does not get'} ×1.15`, async () => {
      const now = new Date('2026-03-01T09:00:00Z');
      const test = await createTestCore({ clock: { now: () => now } });
      try {
        // The memory covers half of the question, so the boosted score stays under the cap of 1.
        const query = 'what did we decide about the zebracorn rollout and the quokka ledger two weeks ago';
        const around = Date.parse(parseTimeExpressions(query, now).boostAround!);
        const content = 'We decided the zebracorn rollout goes region by region';
        const score = async (user: string, eventTime: string | undefined): Promise<number> => {
          await test.core.storeMemory({
            user_id: user,
            content,
            memory_category: 'episodic',
            memory_subtype: 'decision',
            ...(eventTime ? { event_time: eventTime } : {}),
          });
          const result = await test.core.recall({ user_id: user, query, min_similarity: 0 }, { logAccess: false });
          assert.equal(result.memories.length, 1, user);
          return result.memories[0].relevance_score;
        };
        // The same memory with no event time: stored now, more than 3.5 days from the point.
        const plain = await score('plain', undefined);
        const dated = await score('dated', new Date(around - offsetMs).toISOString());
        const ratio = dated / plain;
        assert.ok(
          boosted ? Math.abs(ratio - 1.15) < 0.01 : Math.abs(ratio - 1) < 0.01,
          `score ${dated} vs ${plain} (×${ratio.toFixed(3)})`,
        );
      } finally {
        await test.cleanup();
      }
    });
  }

  for (const [best, abstains] of [
    [0.3, false],
    [0.2999, true],
  ] as const) {
    it(`a best match of ${best} ${abstains ? 'abstains' : 'answers'} (floor 0.3, reached inclusive)`, () => {
      const decision = applyRelevanceFloor([{ gate: best, dialogTurn: false }], 0.3);
      assert.equal(decision.abstained, abstains);
    });
  }

  for (const [best, keepsPartial] of [
    [0.4, true],
    [0.3999, false],
  ] as const) {
    it(`a partial stored statement ${keepsPartial ? 'goes' : 'does not go'} with a best match of ${best} (confident from 0.4)`, () => {
      const partial = { gate: 0.2, dialogTurn: false };
      const answer = { gate: best, dialogTurn: false };
      assert.deepEqual(applyRelevanceFloor([answer, partial], 0.3).kept, keepsPartial ? [answer, partial] : [answer]);
    });
  }
});
