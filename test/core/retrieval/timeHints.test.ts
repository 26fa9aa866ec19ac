import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timedEvents } from '../../support/timedEvents.ts';

/** Time expressions in a query boost memories of that time; they never hide the others. */
describe('time expressions in recall', () => {
  // Same words and length, so full text ties; the last stored wins a tie.
  const events = [
    ['may', '2026-05-05T10:00:00Z'],
    ['june', '2026-06-01T10:00:00Z'],
    ['jan', '2026-01-10T10:00:00Z'],
  ] as const;
  const { ids, recall } = timedEvents({
    user: 't',
    now: '2026-06-15T12:00:00Z',
    ticking: true,
    events: events.map(([label, eventTime]) => [label, `Deployed the billing service (${label})`, eventTime] as const),
  });

  it('without a time expression the last stored memory wins the tie', async () => {
    const result = await recall('deployed billing service');
    assert.equal(result.retrieval_breakdown.time_filter, null);
    assert.equal(result.memories[0].memory_id, ids.jan);
  });

  it('a calendar phrase becomes an interval that lifts the memories inside it', async () => {
    const result = await recall('deployed billing service in May');
    assert.ok(result.retrieval_breakdown.time_filter && result.retrieval_breakdown.time_filter.matched.length > 0);
    assert.equal(result.memories[0].memory_id, ids.may);
    assert.equal(result.memories.length, 3, 'the other memories are still returned');
  });

  it('"two weeks ago" boosts the memories around that point', async () => {
    const result = await recall('deployed billing service two weeks ago');
    const filter = result.retrieval_breakdown.time_filter;
    assert.ok(
      filter?.after &&
        filter.before &&
        filter.after < '2026-06-01T10:00:00.000Z' &&
        filter.before > '2026-06-01T10:00:00.000Z',
    );
    assert.equal(result.memories[0].memory_id, ids.june);
  });
});
