import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { focusTerms } from '../../../src/core/retrieval/questionFocus.ts';
import { timedEvents } from '../../support/timedEvents.ts';

/**
 * A question naming a time the memories hold asks what happened then (issue 30 point 4): the words
 * of its focus ("What dish …") count as generic words (questionFocus.ts), and, as for a question
 * asking when, the matches that say when rank first (timeAnswerWeighting.ts).
 */
describe('a question that names a time the memories hold', () => {
  const { recall, returned } = timedEvents({
    user: 'w',
    now: '2026-03-02T12:00:00Z',
    ticking: true,
    events: [
      ['favouriteDish', 'Last month Nate said his favourite dish is spicy ramen.', '2022-09-14T10:00:00Z'],
      ['tournament', 'Nate played a game tournament with his team.', '2022-11-09T09:00:00Z'],
      ['cooked', 'Nate tried cooking this week: coconut ice cream.', '2022-11-09T10:00:00Z'],
      ['pets', 'Nate took the turtles for a walk in the park.', '2022-10-02T10:00:00Z'],
      ['exams', 'Tim has been swamped with exams.', '2023-11-11T10:00:00Z'],
      ['castle', 'Tim went to a castle during his trip to the UK last Friday.', '2023-11-16T10:00:00Z'],
      ['reading', 'Tim is reading a fantasy novel series.', '2023-10-01T10:00:00Z'],
    ],
  });

  it('answers "what <kind>" with the memory of that time naming an instance, not the kind at another time', async () => {
    const result = await recall('What dish did Nate make on 9 November, 2022?');
    assert.equal(returned(result)[0], 'cooked');
    assert.ok(returned(result).indexOf('cooked') < returned(result).indexOf('favouriteDish'));
  });

  it('ranks the memory of the window that says when above one that was only said then', async () => {
    const result = await recall('Where was Tim in the week before 16 November 2023?');
    assert.deepEqual(returned(result).slice(0, 2), ['castle', 'exams']);
    assert.ok(result.memories[0].score_breakdown.signals.includes('states_time'));
  });

  it('leaves a window no memory is in as it was: nothing is weighted', async () => {
    const result = await recall('Where was Tim in the week before 16 November 2021?');
    assert.ok(result.memories.every((memory) => !memory.score_breakdown.signals.includes('states_time')));
  });
});

describe('focusTerms', () => {
  it('reads the words between "what" or "which" and the first auxiliary verb', () => {
    assert.deepEqual([...focusTerms('What dish did Nate make on 9 November, 2022?')], ['dish']);
    assert.deepEqual([...focusTerms('Which country was Tim visiting in November?')], ['countri']);
    assert.deepEqual([...focusTerms('What major achievement did Joanna accomplish?')], ['major', 'achiev']);
  });

  it('finds no focus in other questions', () => {
    for (const question of [
      'What did Joanna just finish last Friday?',
      'What did Nate do for Joanna on 25 May, 2022?',
      'Where was Tim in the week before 16 November 2023?',
      'When did Nate win his third tourney?',
      'Did we decide what library to use?',
    ])
      assert.deepEqual([...focusTerms(question)], [], question);
  });
});
