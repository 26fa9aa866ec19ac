import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import { windowTopicHits } from '../../../src/core/retrieval/windowTopicMembers.ts';
import { analyzeQuery } from '../../../src/core/text/analyzer.ts';
import { timedEvents } from '../../support/timedEvents.ts';

const PLACES = ['Lisbon', 'Oslo', 'Kyoto', 'Denver', 'Quito', 'Hanoi', 'Perth', 'Tunis', 'Riga', 'Lima'];
const SEASONS = ['spring', 'autumn', 'winter'];
const CHORES = ['repaired the fence', 'painted the kitchen', 'baked bread', 'cleaned the garage', 'planted tomatoes'];
const FRIENDS = ['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Femi', 'Gus'];

/**
 * A topical question with a calendar window ranks the topic's memories of that time even when the
 * topic's words are so common that the lexical pool cut them (windowTopicMembers.ts).
 */
describe('a topical question naming a small window', () => {
  // Sixty short memories about travel outside July 2022: each outranks the July one on BM25, and
  // together they fill the lexical pool (50 for a limit of 5). A hundred more about other things
  // keep "travel" a word that tells memories apart.
  const chores = CHORES.flatMap((chore, c) =>
    FRIENDS.flatMap((friend, f) =>
      [0, 1, 2].map(
        (round) =>
          [
            `chore-${c}-${f}-${round}`,
            `${friend} ${chore} ${['on Monday', 'after work', 'at dawn'][round]}.`,
            new Date(Date.UTC(2020, c, 1 + 4 * f + round)).toISOString(),
          ] as const,
      ),
    ),
  );
  const others = PLACES.flatMap((place, p) =>
    SEASONS.flatMap((season, s) =>
      [0, 1].map(
        (half) =>
          [
            `other-${p}-${s}-${half}`,
            `Travel to ${place} in ${season}: travel notes ${half === 0 ? 'booked' : 'drafted'}.`,
            new Date(Date.UTC(2021, p, 1 + 9 * s + half)).toISOString(),
          ] as const,
      ),
    ),
  );
  const { recall, returned } = timedEvents({
    user: 'w',
    now: '2023-06-01T12:00:00Z',
    events: [
      ...others,
      ...chores,
      [
        'july',
        'Finally went on the long summer road trip I had been planning with my sister, a travel through the Rocky Mountains with many stops at lakes and small towns along the way.',
        '2022-07-14T10:00:00Z',
      ],
      [
        'julyScript',
        'Joanna finished the second draft of her screenplay and sent it to the writers group.',
        '2022-07-02T10:00:00Z',
      ],
      ['julyGame', 'Nate won the regional gaming tournament and streamed the final match.', '2022-07-20T10:00:00Z'],
    ],
  });

  it("finds the window's memory on the topic beyond the lexical pool, first", async () => {
    const result = await recall('where did I travel in July 2022?', { limit: 5 });
    assert.equal(returned(result)[0], 'july');
    assert.ok(result.memories[0].score_breakdown.signals.includes('time'));
  });
});

describe('the window members that join the candidates', () => {
  const member = (memory_id: string, content: string, tags: string[] = []): MemoryRecord =>
    ({ memory_id, content, summary: null, entities: [], tags, metadata: {} }) as unknown as MemoryRecord;
  const members = [
    member('trip', 'Travelled through the mountains with my sister.'),
    member('script', 'Finished the second draft of my screenplay.'),
    member('pooled', 'Travel plans for the coast.'),
    member('tagged', 'Booked it all.', ['travel']),
  ];
  const pool = [
    { memory_id: 'pooled', score: 7.5, matched_terms: ['travel'] },
    { memory_id: 'elsewhere', score: 3.25, matched_terms: ['travel'] },
  ];

  it("are those sharing a search term, outside the pool, at the pool's lowest score, with the terms they share", () => {
    const found = windowTopicHits(members, analyzeQuery('where did I travel'), pool);
    assert.deepEqual(found.hits, [
      { memory_id: 'trip', score: 3.25, matched_terms: ['travel'] },
      { memory_id: 'tagged', score: 3.25, matched_terms: ['travel'] },
    ]);
    assert.deepEqual(
      found.members.map((memory) => memory.memory_id),
      ['trip', 'tagged'],
    );
  });
});
