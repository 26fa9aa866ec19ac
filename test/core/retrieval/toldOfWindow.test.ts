import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecallOutput } from '../../../src/core/api/longTermApi.ts';
import { recordedWithinReach, TELLING_REACH_MS } from '../../../src/core/retrieval/toldOfWindow.ts';
import { timedEvents } from '../../support/timedEvents.ts';

/**
 * A memory recorded after the time it tells of ("… last Friday", stored the Monday after) covers a
 * window the question names when its own time phrases, read as of when it was recorded, fall inside
 * it (toldOfWindow.ts).
 */
describe('a memory that tells of the window later', () => {
  // Stored first, so without the rule the other castle memory (stored later) wins the tie.
  const { ids, recall, returned } = timedEvents({
    user: 'k',
    now: '2026-06-15T12:00:00Z',
    ticking: true,
    events: [
      // Monday 18 May 2026: "last Friday" is 15 May.
      ['toldLater', 'We visited the castle on the coast last Friday, windy.', '2026-05-18T09:00:00Z'],
      ['otherVisit', 'We visited the castle on the coast with the cousins.', '2026-04-02T09:00:00Z'],
      // Recorded in the window's month but telling of April: it names no time in the window.
      ['toldOfApril', 'We visited the castle on the coast in April, rainy.', '2026-05-20T09:00:00Z'],
    ],
  });

  it('ranks the memory that tells of the day first, marked as from the time asked about', async () => {
    const result = await recall('Which castle did we visit on 15 May 2026?');
    assert.equal(returned(result)[0], 'toldLater');
    assert.ok(result.memories[0].score_breakdown.signals.includes('time'));
    assert.match(result.memories[0].why_matched, /from the time asked about/);
  });

  it('does not count a memory whose phrases name another time', async () => {
    const result = await recall('Which castle did we visit on 15 May 2026?');
    const april = result.memories.find((memory) => memory.memory_id === ids.toldOfApril);
    assert.ok(april && !april.score_breakdown.signals.includes('time'));
  });

  it('answers a question that is only a time with the memories that tell of it later too', async () => {
    const result = await recall('What happened on 15 May 2026?');
    assert.deepEqual(returned(result), ['toldLater']);
    assert.ok(result.memories[0].score_breakdown.signals.includes('time'));
  });

  it('reads only candidates recorded within the reach before or after the window', () => {
    const window = { after: '2026-05-15T00:00:00.000Z', before: '2026-05-15T23:59:59.999Z' };
    const end = Date.parse(window.before);
    const start = Date.parse(window.after);
    const candidates = [
      { memory_id: 'inside', happened_ms: end - 1000 },
      { memory_id: 'justAfter', happened_ms: end + 3 * 86_400_000 },
      { memory_id: 'tooLate', happened_ms: end + TELLING_REACH_MS + 1 },
      { memory_id: 'justBefore', happened_ms: start - 3 * 86_400_000 },
      { memory_id: 'tooEarly', happened_ms: start - TELLING_REACH_MS - 1 },
    ];
    assert.deepEqual(recordedWithinReach(window, candidates), ['justAfter', 'justBefore']);
    assert.deepEqual(
      recordedWithinReach({ after: window.after }, candidates),
      ['justBefore'],
      'an open end has no after',
    );
    assert.deepEqual(
      recordedWithinReach({ before: window.before }, candidates),
      ['justAfter'],
      'an open start has no before',
    );
  });
});

describe('a memory that tells of the window later, cut from a full pool', () => {
  // Sixty short castle memories of 2025 outrank the long one on BM25 and fill the pool (50 for a
  // limit of 5); a hundred about other things keep "castle" a word that tells memories apart.
  const castles = Array.from(
    { length: 60 },
    (_, n) => [`castle-${n}`, `Castle visit ${n}.`, new Date(Date.UTC(2025, 0, 1 + n)).toISOString()] as const,
  );
  const others = Array.from(
    { length: 100 },
    (_, n) =>
      [
        `other-${n}`,
        `Repaired the garden fence, round ${n}.`,
        new Date(Date.UTC(2024, 0, 1 + n)).toISOString(),
      ] as const,
  );
  const told = [
    'told',
    'We finally had a long and lovely day out and visited the old castle on the windy coast last Friday with everyone.',
    '2026-05-18T09:00:00Z',
  ] as const;
  const { ids, recall } = timedEvents({
    user: 'p',
    now: '2026-06-15T12:00:00Z',
    events: [told, ...castles, ...others],
  });

  it('reads the memories recorded just after the window and ranks the one that tells of it first', async () => {
    const result = await recall('Which castle did we visit on 15 May 2026?', { limit: 5 });
    assert.equal(result.memories[0]?.memory_id, ids.told);
    assert.ok(result.memories[0].score_breakdown.signals.includes('time'));
  });
});

/**
 * A plan is told before the time it names ("… on Friday", said on the Tuesday before): a memory
 * recorded within the reach before the window covers it when its phrases, read ahead as of when it
 * was recorded, fall inside it (toldOfWindow.ts).
 */
describe('a memory that tells of the window ahead, as a plan', () => {
  const { ids, recall } = timedEvents({
    user: 'a',
    now: '2026-06-15T12:00:00Z',
    events: [
      // Tuesday 12 May 2026: "on Friday" is the coming one, 15 May.
      ['toldAhead', 'We visit the castle on the coast on Friday, windy.', '2026-05-12T09:00:00Z'],
      // 13 April, 32 days before the window starts: "next month" is May, but out of reach.
      ['tooEarly', 'We visit the castle on the coast next month, windy.', '2026-04-13T09:00:00Z'],
      // Wednesday 13 May: "this week" (11-17 May) holds the 15th, but it points back, not ahead.
      ['toldBack', 'We visited the castle on the coast this week, windy.', '2026-05-13T09:00:00Z'],
      // Tuesday 12 May: "tomorrow" is the 13th, outside the window.
      ['otherDay', 'We visit the castle on the coast tomorrow, windy.', '2026-05-12T10:00:00Z'],
    ],
  });
  const signalsOf = (result: RecallOutput, name: string): string[] | undefined =>
    result.memories.find((memory) => memory.memory_id === ids[name])?.score_breakdown.signals;

  it('ranks the plan for the day first, marked as from the time asked about', async () => {
    const result = await recall('Which castle did we visit on 15 May 2026?');
    assert.equal(result.memories[0]?.memory_id, ids.toldAhead);
    assert.ok(signalsOf(result, 'toldAhead')?.includes('time'));
    assert.match(result.memories[0].why_matched, /from the time asked about/);
  });

  it('does not count a plan told out of reach, a phrase that points back, or a plan for another day', async () => {
    const result = await recall('Which castle did we visit on 15 May 2026?');
    for (const name of ['tooEarly', 'toldBack', 'otherDay']) {
      const signals = signalsOf(result, name);
      assert.ok(signals && !signals.includes('time'), `${name}: ${String(signals)}`);
    }
  });

  it('answers a question that is only a time with the plans told before it', async () => {
    const result = await recall('What happened on 15 May 2026?');
    assert.deepEqual(
      result.memories.map((memory) => memory.memory_id),
      [ids.toldAhead],
    );
  });
});
