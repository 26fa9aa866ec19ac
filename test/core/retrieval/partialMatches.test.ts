import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RELEVANCE_FLOOR } from '../../../src/core/coreDeps.ts';
import { applyRelevanceFloor, CONFIDENT_ANSWER, partialFloor } from '../../../src/core/retrieval/relevanceFloor.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/** Abstention is decided on the best candidate; partial matches go with an answer that clears the floor. */
describe('relevance floor: abstention and partial matches', () => {
  it('abstains when no candidate reaches the floor, however many weaker ones there are', () => {
    const decision = applyRelevanceFloor(
      [0.29, 0.2, 0.16].map((gate) => ({ gate, dialogTurn: false })),
      0.3,
    );
    assert.equal(decision.abstained, true);
    assert.deepEqual(decision.kept, []);
    assert.deepEqual(
      decision.heldBack.map((entry) => entry.gate),
      [0.29, 0.2, 0.16],
    );
  });

  it('keeps the weaker candidates beside one that clears the floor, marked partial', () => {
    const strong = { gate: 0.45, dialogTurn: false };
    const atFloor = { gate: 0.3, dialogTurn: false };
    const weak = { gate: 0.18, dialogTurn: false };
    const decision = applyRelevanceFloor([strong, atFloor, weak], 0.3);
    assert.equal(decision.abstained, false);
    assert.deepEqual(decision.kept, [strong, atFloor, weak]);
    assert.deepEqual([...decision.partial], [weak], 'a candidate exactly at the floor is a full match');
    assert.deepEqual(decision.heldBack, []);
  });

  it('keeps partial statements only beside a confident answer', () => {
    const partial = { gate: 0.2, dialogTurn: false };
    const confident = { gate: CONFIDENT_ANSWER, dialogTurn: false };
    assert.deepEqual(applyRelevanceFloor([confident, partial], 0.3).kept, [confident, partial]);
    const barely = { gate: CONFIDENT_ANSWER - 0.01, dialogTurn: false };
    const decision = applyRelevanceFloor([barely, partial], 0.3);
    assert.deepEqual(decision.kept, [barely]);
    assert.deepEqual(decision.heldBack, [partial]);
    assert.equal(decision.abstained, false);
  });

  it('lets partial dialog turns go with an answer from the dialog, never with a stored statement alone', () => {
    const turn = { gate: 0.6, dialogTurn: true };
    const weakTurn = { gate: 0.16, dialogTurn: true };
    assert.deepEqual(applyRelevanceFloor([turn, weakTurn], 0.3).kept, [turn, weakTurn]);
    const statement = { gate: 0.9, dialogTurn: false };
    const decision = applyRelevanceFloor([statement, weakTurn], 0.3);
    assert.deepEqual(decision.kept, [statement]);
    assert.deepEqual(decision.heldBack, [weakTurn]);
  });

  it('keeps a partial statement beside a chat answer when it matches a word no answering turn has', () => {
    const turn = { gate: CONFIDENT_ANSWER - 0.05, dialogTurn: true, matchedTerms: ['featur'] };
    const otherHalf = { gate: 0.2, dialogTurn: false, matchedTerms: ['experi'] };
    const sameWord = { gate: 0.2, dialogTurn: false, matchedTerms: ['featur'] };
    const decision = applyRelevanceFloor([turn, otherHalf, sameWord], 0.3);
    assert.deepEqual(decision.kept, [turn, otherHalf]);
    assert.deepEqual([...decision.partial], [otherHalf]);
    assert.deepEqual(decision.heldBack, [sameWord], "a statement on the answer's own word is chatter beside it");
  });

  it('keeps the confident-answer rule when a statement answers, whatever words a partial statement adds', () => {
    const statement = { gate: CONFIDENT_ANSWER - 0.05, dialogTurn: false, matchedTerms: ['schedul'] };
    const turn = { gate: CONFIDENT_ANSWER - 0.05, dialogTurn: true, matchedTerms: ['featur'] };
    const partial = { gate: 0.2, dialogTurn: false, matchedTerms: ['holiday'] };
    assert.deepEqual(applyRelevanceFloor([statement, partial], 0.3).heldBack, [partial]);
    assert.deepEqual(applyRelevanceFloor([turn, statement, partial], 0.3).heldBack, [partial]);
  });

  it('lets partial matches down to half the default floor, and none below an explicit one', () => {
    assert.equal(partialFloor(0.3, true), 0.15);
    assert.equal(partialFloor(0.3, false), 0.3);
  });

  describe('through recall', () => {
    let test: TestCore;
    const ids: Record<string, string> = {};
    const user = 'partial';

    before(async () => {
      test = await createTestCore();
      const memories: Record<string, string> = {
        full: 'Rotate the webhook relay signing keys every quarter.',
        partial: 'The relay signing service runs on two hosts behind the gateway.',
        other1: 'Invoices are generated on the first day of the month.',
        other2: 'The design system uses an eight pixel grid.',
        other3: 'Nightly backups are copied to a second region.',
        other4: 'Feature toggles are reviewed at each planning meeting.',
      };
      for (const [key, content] of Object.entries(memories)) {
        ids[key] = (
          await test.core.storeMemory({
            user_id: user,
            content,
            memory_category: 'semantic',
            memory_subtype: 'project',
          })
        ).memory_id;
      }
    });
    after(() => test.cleanup());

    const query = 'when do we rotate the webhook relay signing keys';

    it('returns a partial match after the full one, and says it is partial', async () => {
      const result = await test.core.recall({ user_id: user, query }, { logAccess: false });
      assert.deepEqual(
        result.memories.map((memory) => memory.memory_id),
        [ids.full, ids.partial],
      );
      const [full, partial] = result.memories;
      assert.ok(full.relevance_score >= RELEVANCE_FLOOR);
      assert.ok(!full.score_breakdown.signals.includes('partial'));
      assert.ok(
        partial.relevance_score < RELEVANCE_FLOOR && partial.relevance_score >= RELEVANCE_FLOOR / 2,
        `partial score ${partial.relevance_score}`,
      );
      assert.ok(partial.score_breakdown.signals.includes('partial'));
      assert.match(partial.why_matched, /partial match \(below the relevance floor, beside a full match\)/);
      assert.equal(result.retrieval_breakdown.abstained, false);
    });

    it('keeps an explicit min_similarity a bar for every result', async () => {
      const result = await test.core.recall(
        { user_id: user, query, min_similarity: RELEVANCE_FLOOR },
        { logAccess: false },
      );
      assert.deepEqual(
        result.memories.map((memory) => memory.memory_id),
        [ids.full],
      );
      assert.ok(result.retrieval_breakdown.below_floor >= 1);
    });

    it('abstains on a question only partial matches answer, and names the best of them', async () => {
      const result = await test.core.recall(
        { user_id: user, query: 'gateway outage postmortem' },
        { logAccess: false },
      );
      assert.deepEqual(result.memories, []);
      assert.equal(result.retrieval_breakdown.abstained, true);
      const best = result.retrieval_breakdown.best_below_floor;
      assert.equal(best?.memory_id, ids.partial);
      assert.ok(best!.relevance_score >= RELEVANCE_FLOOR / 2, 'it would have been kept beside a full match');
    });

    it('packs full matches only into get_relevant_context', async () => {
      const { session_id } = await test.core.initSession({ user_id: user });
      const context = await test.core.getRelevantContext({ session_id, user_id: user, query, token_budget: 2000 });
      const longTerm = context.context_items
        .filter((item) => item.source === 'long_term')
        .map((item) => item.memory_id);
      assert.ok(longTerm.includes(ids.full));
      assert.ok(!longTerm.includes(ids.partial));
    });
  });
});
