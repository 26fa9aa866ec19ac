import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Clock } from '../../../src/core/ports/clock.ts';
import { parseTimeExpressions } from '../../../src/core/retrieval/timeExpressions.ts';
import { createTestCore, storeEvents } from '../../support/testCore.ts';
import { timedEvents } from '../../support/timedEvents.ts';

/**
 * A date without a year names that day or month of the latest year the user has memories of in it
 * (yearlessDates.ts): asked in 2026 of memories from 2023, "in May" is May 2023, not an empty May 2025.
 */
describe('a date named without a year', () => {
  const clock: Clock = { now: () => new Date('2026-01-20T12:00:00Z') };
  const { recall, returned } = timedEvents({
    user: 'y',
    now: clock.now().toISOString(),
    events: [
      ['hikeMay', 'Went hiking to the waterfall with the photography club.', '2023-05-14T10:00:00Z'],
      ['hikeJuly', 'Went hiking to the ridge with the photography club.', '2023-07-02T10:00:00Z'],
      ['concertAugust15', 'Played the summer concert in the park with the band.', '2023-08-15T19:00:00Z'],
      ['concertAugust3', 'Played the summer concert at the harbour with the band.', '2023-08-03T19:00:00Z'],
      ['deployMay2022', 'Deployed the release with the new waterfall chart.', '2022-05-20T10:00:00Z'],
    ],
  });

  /** The query's window stepped back to [after, before], and the memory in it ranked first on time. */
  async function expectSteppedBack(
    query: string,
    window: [after: string, before: string, matched: string],
    first: string,
  ) {
    const result = await recall(query);
    const [after, before, matched] = window;
    assert.deepEqual(result.retrieval_breakdown.time_filter, { after, before, matched: [matched] });
    assert.equal(returned(result)[0], first);
    assert.ok(result.memories[0].score_breakdown.signals.includes('time'));
  }

  it('"in May" is the latest May that holds the user\'s memories', async () => {
    await expectSteppedBack(
      'where did I go hiking in May?',
      ['2023-05-01T00:00:00.000Z', '2023-05-31T23:59:59.999Z', 'May'],
      'hikeMay',
    );
  });

  it('a day without a year steps back the same way', async () => {
    const result = await recall('which concert did the band play on August 15th?');
    assert.equal(result.retrieval_breakdown.time_filter?.after, '2023-08-15T00:00:00.000Z');
    assert.equal(returned(result)[0], 'concertAugust15');
  });

  it('a range without a year steps back as one window, not two dates intersected', async () => {
    await expectSteppedBack(
      'which concert did the band play between August 1 and August 10?',
      ['2023-08-01T00:00:00.000Z', '2023-08-10T23:59:59.999Z', 'between August 1 and August 10'],
      'concertAugust3',
    );
  });

  it('a date with a year, and a yearless date whose latest occurrence holds memories, stay as named', async () => {
    const dated = await recall('what did we deploy in May 2022?');
    assert.equal(dated.retrieval_breakdown.time_filter?.after, '2022-05-01T00:00:00.000Z');
    const recent = await createTestCore({ clock });
    try {
      await storeEvents(recent, 'z', [['fresh', 'Went hiking to the lake.', '2025-05-10T10:00:00Z']]);
      await storeEvents(recent, 'z', [['old', 'Went hiking to the hills.', '2023-05-10T10:00:00Z']]);
      const result = await recent.core.recall({ user_id: 'z', query: 'hiking in May' }, { logAccess: false });
      assert.equal(result.retrieval_breakdown.time_filter?.after, '2025-05-01T00:00:00.000Z');
    } finally {
      await recent.cleanup();
    }
  });

  it('with nothing stored before the default occurrence, the default window stays', async () => {
    const empty = await createTestCore({ clock });
    try {
      await storeEvents(empty, 'n', [['new', 'Went hiking to the lake.', '2025-12-10T10:00:00Z']]);
      const result = await empty.core.recall({ user_id: 'n', query: 'hiking in May' }, { logAccess: false });
      assert.equal(result.retrieval_breakdown.time_filter?.after, '2025-05-01T00:00:00.000Z');
    } finally {
      await empty.cleanup();
    }
  });

  it('only windows made of yearless dates are marked as such', () => {
    const now = new Date('2026-01-20T12:00:00Z');
    assert.equal(parseTimeExpressions('in May', now).yearless, true);
    assert.equal(parseTimeExpressions('on the 3rd of August', now).yearless, true);
    assert.equal(parseTimeExpressions('in May 2023', now).yearless, undefined);
    assert.equal(parseTimeExpressions('last week', now).yearless, undefined);
    assert.equal(parseTimeExpressions('between August 11 and August 15 2023', now).yearless, undefined);
    assert.equal(parseTimeExpressions('two weeks ago', now).yearless, undefined);
  });
});
