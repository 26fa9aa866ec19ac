import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksForTime } from '../../../src/core/retrieval/timeAnswerWeighting.ts';
import { mentionsTime } from '../../../src/core/retrieval/timeMentions.ts';
import { timedEvents } from '../../support/timedEvents.ts';

/**
 * A question that asks for a time is answered by a memory that says when (timeAnswerWeighting.ts):
 * among equal matches it ranks first, and it never lets a memory through on its time alone.
 */
describe('a question that asks when', () => {
  // The memory that says when is stored first: without the rule, the later one wins the tie.
  const { recall, returned } = timedEvents({
    user: 'w',
    now: '2026-03-02T12:00:00Z',
    ticking: true,
    events: [
      ['movedLastTuesday', 'Moved the reports database to PostgreSQL last Tuesday.', '2026-02-26T10:00:00Z'],
      ['movedWhy', 'Moved the reports database to PostgreSQL for its JSONB columns.', '2026-02-26T11:00:00Z'],
      ['lunchYesterday', 'Team lunch at the noodle bar yesterday, twelve people came.', '2026-03-01T13:00:00Z'],
    ],
  });

  it('ranks the match that says when above an equal match that does not', async () => {
    const result = await recall('When did we move the reports database to PostgreSQL?');
    assert.deepEqual(returned(result).slice(0, 2), ['movedLastTuesday', 'movedWhy']);
    const [first, second] = result.memories;
    assert.ok(first.score_breakdown.signals.includes('states_time'));
    assert.match(first.why_matched, /says when, as the question asks/);
    assert.ok(!second.score_breakdown.signals.includes('states_time'));
  });

  it('reorders within a limit of one too: the candidates that can reach the limit are read', async () => {
    const result = await recall('How long ago did we move the reports database to PostgreSQL?', { limit: 1 });
    assert.deepEqual(returned(result), ['movedLastTuesday']);
  });

  it('leaves questions that ask for no time as they were', async () => {
    const result = await recall('Why did we move the reports database to PostgreSQL?');
    assert.equal(returned(result)[0], 'movedWhy', 'the later stored memory wins the tie');
    assert.ok(result.memories.every((memory) => !memory.score_breakdown.signals.includes('states_time')));
  });

  it('never returns a memory on its time alone', async () => {
    const result = await recall('When did we move the reports database to PostgreSQL?');
    assert.ok(!returned(result).includes('lunchYesterday'), 'the lunch says when but is about nothing asked');
  });
});

describe('asksForTime', () => {
  it('reads the question words that ask for a time', () => {
    for (const question of [
      'When did Caroline join the choir?',
      'when is the release planned',
      'Since when has the cache been on?',
      'How long has the service run on Kubernetes?',
      'What year did we adopt TypeScript?',
      'In which month was the outage?',
      '“When did the migration finish?”',
    ])
      assert.ok(asksForTime(question), question);
  });

  it('does not read a "when" inside a sentence, nor other questions', () => {
    for (const question of [
      'what do we do when production is down',
      'Why did we move to PostgreSQL?',
      'Where was John in the week before 16 November 2023?',
      'whenever the build fails, who is paged?',
    ])
      assert.ok(!asksForTime(question), question);
  });
});

describe('mentionsTime', () => {
  it('finds dates, relative days and periods, and durations', () => {
    for (const text of [
      'We shipped it yesterday.',
      'Last Fri I took the kids to a pottery workshop.',
      'I had a great day out last weekend.',
      'The opening night is tomorrow!',
      "I've had them for 3 years now.",
      'I first watched it around 3 years ago.',
      'We are planning a team trip next month.',
      'I met my teammates on the 15th after my trip.',
      'The audit log moved on 8 May 2023.',
      'Released on May 8th, with the new parser.',
      'Deployed 2024-02-01 after the freeze.',
      'We have used Postgres since 2019.',
      'The cluster went down in March.',
      'I am organizing a party two weekends later.',
      'I have been playing for about four months now.',
      // The words before a month or a year that the query's phrases read, and a year-month.
      'We moved at the end of May.',
      'Last May we moved the cluster.',
      'The freeze holds until after March.',
      'It was written before 2020.',
      'The parser was released 2023-05 with the new grammar.',
      'In the year 2019 we switched to Kafka.',
    ])
      assert.ok(mentionsTime(text), text);
  });

  it('does not take topic words, capitalised month-like words or bare numbers for a time', () => {
    for (const text of [
      'Moved the reports database to PostgreSQL for its JSONB columns.',
      'May I borrow your camera for the trip?',
      'The API returns 3 pages of results.',
      'We march on regardless of the weather.',
      'The service keeps the last 100 requests in memory.',
      'Ticket 1234-56 is closed.',
    ])
      assert.ok(!mentionsTime(text), text);
  });
});
