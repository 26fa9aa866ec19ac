import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecallOutput } from '../../../src/core/api/longTermApi.ts';
import type { Clock } from '../../../src/core/ports/clock.ts';
import { answersHeldWindow } from '../../../src/core/retrieval/heldWindowAnswers.ts';
import type { RankedCandidate } from '../../../src/core/retrieval/scoredMemory.ts';
import { createTestCore, labelsOf, storeEvents, type TestCore } from '../../support/testCore.ts';

/**
 * A question naming a time the memories hold asks what happened then (issue 30 point 4); when its
 * other words name the kind of answer, which the memory of that time does not write, nothing
 * reaches the relevance floor. Then that time's matches are the answer, marked partial, instead of
 * an empty answer (heldWindowAnswers.ts).
 */
describe('a question naming a time the memories hold that nothing clears the floor for', () => {
  let tick = 0;
  const clock: Clock = { now: () => new Date(Date.parse('2026-03-02T12:00:00Z') + 1000 * tick++) };
  let test: TestCore;
  const ids: Record<string, string> = {};
  const recall = (query: string, minSimilarity?: number): Promise<RecallOutput> =>
    test.core.recall(
      { user_id: 'h', query, ...(minSimilarity === undefined ? {} : { min_similarity: minSimilarity }) },
      { logAccess: false },
    );

  before(async () => {
    test = await createTestCore({ clock });
    Object.assign(
      ids,
      await storeEvents(test, 'h', [
        ['hair', 'Nate dyed his hair purple last week.', '2022-04-20T10:00:00Z'],
        ['novel', 'Joanna finished reading a long novel.', '2022-04-21T10:00:00Z'],
        ['tournament', 'Nate won a video game tournament.', '2022-06-10T10:00:00Z'],
        ['turtles', 'Nate fed his turtles and cleaned their tank.', '2022-07-02T10:00:00Z'],
        ['movie', 'Nate watched a movie with Joanna.', '2022-08-15T10:00:00Z'],
        ['recipe', 'Nate tried a new dairy-free recipe.', '2022-09-03T10:00:00Z'],
      ]),
    );
  });
  after(() => test.cleanup());

  it("answers with that time's matches, marked partial, and not with a memory of that time sharing no word", async () => {
    const result = await recall('What physical transformation did Nate undergo in April 2022?');
    assert.equal(result.retrieval_breakdown.abstained, false);
    assert.deepEqual(labelsOf(ids, result), ['hair']);
    assert.ok(result.memories[0].score_breakdown.signals.includes('partial'));
    assert.ok(result.memories[0].score_breakdown.signals.includes('time'));
  });

  it('still abstains when no memory is in the window, or when the caller sets the floor', async () => {
    const empty = await recall('What physical transformation did Nate undergo in April 2021?');
    assert.equal(empty.retrieval_breakdown.abstained, true);
    const explicit = await recall('What physical transformation did Nate undergo in April 2022?', 0.3);
    assert.equal(explicit.retrieval_breakdown.abstained, true);
  });
});

describe('answersHeldWindow', () => {
  const candidate = (signals: string[], matchedTerms: string[]): RankedCandidate =>
    ({ breakdown: { signals, matched_terms: matchedTerms }, matchedTerms }) as unknown as RankedCandidate;

  it('is a candidate covering the window that matches a word of the question itself, never its time alone', () => {
    assert.equal(answersHeldWindow(candidate(['text', 'time'], ['nate'])), true);
    // A dialog turn of the window reached only as a neighbour of a match shares no word.
    assert.equal(answersHeldWindow(candidate(['text', 'time', 'neighbour'], [])), false);
    assert.equal(answersHeldWindow(candidate(['text'], ['nate'])), false);
  });
});
