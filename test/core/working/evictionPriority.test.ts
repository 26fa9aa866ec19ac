// The keep-priority formula of seed 000 §8.2, pinned to its numbers: relevance × 100, plus
// recency in hours (1 / (1 + hours since last access)) × 10, plus 10 for task_state. The
// ordering tests in eviction.test.ts pass for many wrong formulas; these do not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkingItemRecord } from '../../../src/core/domain/records.ts';
import { chooseEvictions, keepPriority, selectWithinBudget } from '../../../src/core/working/eviction.ts';

const now = new Date('2026-06-01T12:00:00Z');
function item(id: string, overrides: Partial<WorkingItemRecord> = {}): WorkingItemRecord {
  return {
    item_id: id,
    session_id: 's',
    user_id: 'u',
    content_type: 'message',
    content: id,
    token_count: 10,
    relevance_score: 1,
    pinned: false,
    sequence_num: 0,
    created_at: now.toISOString(),
    last_accessed: now.toISOString(),
    metadata: {},
    ...overrides,
  };
}
const ids = (items: readonly WorkingItemRecord[]) => items.map((entry) => entry.item_id);
const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} is not ${expected}`);

describe('keep-priority (seed 000 §8.2)', () => {
  it('hybrid is relevance × 100 + recency × 10 + the task_state bonus', () => {
    close(keepPriority(item('a', { relevance_score: 0.5 }), 'hybrid', now), 50 + 10, 'just accessed: recency 1');
    close(
      keepPriority(item('b', { relevance_score: 0.5, last_accessed: '2026-06-01T11:00:00Z' }), 'hybrid', now),
      50 + 5,
      'one hour ago: recency 1/2',
    );
    close(
      keepPriority(item('c', { relevance_score: 0.2, last_accessed: '2026-06-01T09:00:00Z' }), 'hybrid', now),
      20 + 2.5,
      'three hours ago: recency 1/4',
    );
    close(
      keepPriority(
        item('d', { relevance_score: 0.2, content_type: 'task_state', last_accessed: '2026-06-01T09:00:00Z' }),
        'hybrid',
        now,
      ),
      20 + 2.5 + 10,
      'task_state adds 10',
    );
  });

  it('an access time in the future (clock skew) counts as just now, never above full recency', () => {
    close(
      keepPriority(item('a', { relevance_score: 0, last_accessed: '2026-06-01T13:00:00Z' }), 'hybrid', now),
      10,
      'future access',
    );
  });

  it('relevance is relevance × 100 plus the task_state bonus, with no recency', () => {
    close(
      keepPriority(item('a', { relevance_score: 0.3, last_accessed: '2026-05-01T00:00:00Z' }), 'relevance', now),
      30,
      'old message',
    );
    close(
      keepPriority(item('b', { relevance_score: 0.3, content_type: 'task_state' }), 'relevance', now),
      40,
      'task_state',
    );
  });

  it('lru is the access time in seconds, and task_state outranks any access time', () => {
    const accessed = Date.parse('2026-06-01T10:00:00Z') / 1000;
    close(keepPriority(item('a', { last_accessed: '2026-06-01T10:00:00Z' }), 'lru', now), accessed, 'message');
    close(
      keepPriority(item('b', { last_accessed: '2026-06-01T10:00:00Z', content_type: 'task_state' }), 'lru', now),
      accessed + 1e10,
      'task_state',
    );
  });

  it('conversation order only breaks ties: it never outweighs access time or relevance', () => {
    // An early message read a minute ago outlives a later one untouched for an hour (lru) …
    const earlyReadRecently = item('early', { sequence_num: 1, last_accessed: '2026-06-01T11:59:00Z' });
    const laterUntouched = item('later', { sequence_num: 500, last_accessed: '2026-06-01T11:00:00Z' });
    assert.deepEqual(ids(chooseEvictions([earlyReadRecently, laterUntouched], 10, 'lru', now).evicted), ['later']);
    // … and a relevant early message outlives an irrelevant later one (hybrid, relevance).
    const earlyRelevant = item('early', { sequence_num: 1, relevance_score: 0.9 });
    const laterIrrelevant = item('later', { sequence_num: 500, relevance_score: 0.1 });
    for (const policy of ['hybrid', 'relevance'] as const) {
      assert.deepEqual(
        ids(chooseEvictions([earlyRelevant, laterIrrelevant], 10, policy, now).evicted),
        ['later'],
        policy,
      );
    }
  });

  for (const policy of ['lru', 'relevance', 'hybrid'] as const) {
    it(`${policy}: between otherwise equal items the earlier one in the conversation goes first`, () => {
      const earlier = item('early', { sequence_num: 3 });
      const later = item('late', { sequence_num: 4 });
      assert.ok(keepPriority(later, policy, now) > keepPriority(earlier, policy, now));
      assert.deepEqual(ids(chooseEvictions([later, earlier], 10, policy, now).evicted), ['early']);
    });
  }
});

describe('chooseEvictions', () => {
  it('evicts nothing when no tokens are needed', () => {
    assert.deepEqual(chooseEvictions([item('a'), item('b')], 0, 'hybrid', now), { evicted: [], freed: 0 });
  });

  it('keeps going until the freed tokens reach what is needed, summing each item', () => {
    const items = [
      item('a', { relevance_score: 0.1, token_count: 4 }),
      item('b', { relevance_score: 0.2, token_count: 5 }),
      item('c', { relevance_score: 0.3, token_count: 6 }),
    ];
    assert.deepEqual(chooseEvictions(items, 9, 'relevance', now), { evicted: [items[0], items[1]], freed: 9 });
    assert.deepEqual(chooseEvictions(items, 10, 'relevance', now), { evicted: items, freed: 15 });
  });
});

describe('selectWithinBudget', () => {
  it('takes an item that fills the budget exactly', () => {
    const items = [item('a', { sequence_num: 1, token_count: 10 }), item('b', { sequence_num: 2, token_count: 10 })];
    assert.deepEqual(selectWithinBudget(items, 20), { items, truncated: false });
    assert.deepEqual(selectWithinBudget(items, 19), { items: [items[1]], truncated: true });
  });

  it('a pinned item is preferred over task state, task state over a newer message', () => {
    const pinned = item('pinned', { sequence_num: 1, pinned: true });
    const task = item('task', { sequence_num: 2, content_type: 'task_state' });
    const newest = item('newest', { sequence_num: 3 });
    assert.deepEqual(ids(selectWithinBudget([pinned, task, newest], 10).items), ['pinned']);
    assert.deepEqual(ids(selectWithinBudget([task, newest], 10).items), ['task']);
    assert.deepEqual(ids(selectWithinBudget([pinned, task, newest], 20).items), ['pinned', 'task']);
  });

  it('skips an item too big for what is left and still takes a smaller older one', () => {
    const small = item('small', { sequence_num: 1, token_count: 3 });
    const big = item('big', { sequence_num: 2, token_count: 8 });
    const newest = item('newest', { sequence_num: 3, token_count: 5 });
    assert.deepEqual(selectWithinBudget([small, big, newest], 9), { items: [small, newest], truncated: true });
  });
});
