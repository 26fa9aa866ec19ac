import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timedEvents } from '../../support/timedEvents.ts';

/**
 * A calendar window the query names is part of what it asks (timeWindow.ts): a question that is
 * only a time is answered by that time's memories; with a topic, the window ranks the topic's
 * memories and never lets a memory of that time about something else through on its own.
 */
describe('a time window the query names', () => {
  // Friday 12 June 2026; "last week" is Monday 1 to Sunday 7 June.
  const memories: Array<[string, string, string]> = [
    ['dbLastWeek', 'Decision: moved the reporting tables to PostgreSQL for its JSONB support.', '2026-06-03T10:00:00Z'],
    ['lunchLastWeek', 'Team lunch at the Thai place on the corner, booked for twelve people.', '2026-06-04T12:00:00Z'],
    [
      'flakyLastWeek',
      'The checkout e2e test is flaky on the CI runners when the cache is cold.',
      '2026-06-05T16:00:00Z',
    ],
    ['dbOlder', 'Decision: the audit log stays in PostgreSQL, partitioned by month.', '2026-03-10T10:00:00Z'],
    ['dockerOlder', 'Local development runs in Docker Compose with a seeded database.', '2026-02-02T09:00:00Z'],
    ['tokensOlder', 'API tokens rotate every 90 days through the secrets manager.', '2026-01-20T09:00:00Z'],
  ];
  const { ids, recall, returned } = timedEvents({ user: 't', now: '2026-06-12T12:00:00Z', events: memories });

  it('a question that is only a time gets every memory of that time and nothing else', async () => {
    const result = await recall('what happened last week?');
    assert.deepEqual(returned(result).sort(), ['dbLastWeek', 'flakyLastWeek', 'lunchLastWeek']);
    for (const memory of result.memories) {
      assert.ok(memory.score_breakdown.signals.includes('time'), memory.content);
      assert.match(memory.why_matched, /from the time asked about/);
      assert.ok(memory.relevance_score >= result.retrieval_breakdown.relevance_floor);
    }
    assert.deepEqual(result.retrieval_breakdown.time_filter, {
      after: '2026-06-01T00:00:00.000Z',
      before: '2026-06-07T23:59:59.999Z',
      matched: ['last week'],
    });
  });

  it('a part of a period narrows it, and a time no memory is in gets nothing', async () => {
    // "The end of last week" is its weekend, when nothing was stored.
    const result = await recall('what did we do at the end of last week');
    assert.deepEqual(result.memories, []);
    assert.equal(result.retrieval_breakdown.abstained, true);
    // Monday 1 to Thursday 4 June: not the Friday's memory.
    const firstHalf = await recall('what happened in the first half of last week');
    assert.deepEqual(returned(firstHalf).sort(), ['dbLastWeek', 'lunchLastWeek']);
  });

  it('with a topic, the topic of that time ranks first and the topic of another time still comes', async () => {
    const result = await recall('which PostgreSQL decision did we make last week');
    assert.equal(returned(result)[0], 'dbLastWeek');
    assert.ok(returned(result).includes('dbOlder'), 'a memory covering the whole topic is an answer whatever its date');
    assert.ok(!returned(result).includes('lunchLastWeek'), 'a memory of that time about something else is not');
    assert.ok(!returned(result).includes('flakyLastWeek'));
    const top = result.memories[0];
    assert.ok(top.score_breakdown.signals.includes('time'));
    const older = result.memories.find((memory) => memory.memory_id === ids.dbOlder)!;
    assert.ok(!older.score_breakdown.signals.includes('time'));
    assert.ok(top.relevance_score > older.relevance_score);
  });

  it('a window no memory is in leaves the topic to decide', async () => {
    const withWindow = await recall('which database decision did we make yesterday');
    const without = await recall('which database decision did we make');
    assert.deepEqual(returned(withWindow), returned(without));
    assert.deepEqual(
      withWindow.memories.map((memory) => memory.relevance_score),
      without.memories.map((memory) => memory.relevance_score),
    );
  });

  it('a never-stored topic gets nothing, however many memories that time holds', async () => {
    const result = await recall('how did we set up the bluetooth printer last week');
    assert.deepEqual(result.memories, []);
    assert.equal(result.retrieval_breakdown.abstained, true);
  });

  it("an explicit min_similarity applies to the window's memories too", async () => {
    const result = await recall('what happened last week?', { min_similarity: 0.99 });
    assert.deepEqual(result.memories, []);
  });
});
