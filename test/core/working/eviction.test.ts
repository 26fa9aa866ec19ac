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
    sequence_num: Number(id.replace(/\D/g, '')) || 0,
    created_at: now.toISOString(),
    last_accessed: now.toISOString(),
    metadata: {},
    ...overrides,
  };
}

describe('working-memory eviction', () => {
  it('lru evicts the least recently accessed first and never a pinned item', () => {
    const items = [
      item('i1', { last_accessed: '2026-06-01T09:00:00Z', pinned: true }),
      item('i2', { last_accessed: '2026-06-01T10:00:00Z' }),
      item('i3', { last_accessed: '2026-06-01T11:00:00Z' }),
    ];
    const { evicted, freed } = chooseEvictions(items, 15, 'lru', now);
    assert.deepEqual(
      evicted.map((entry) => entry.item_id),
      ['i2', 'i3'],
    );
    assert.equal(freed, 20);
  });

  it('relevance evicts the lowest relevance first', () => {
    const items = [
      item('i1', { relevance_score: 0.9 }),
      item('i2', { relevance_score: 0.1 }),
      item('i3', { relevance_score: 0.5 }),
    ];
    assert.deepEqual(
      chooseEvictions(items, 5, 'relevance', now).evicted.map((entry) => entry.item_id),
      ['i2'],
    );
  });

  it('hybrid follows seed 000 §8.2: relevance dominates, recency breaks ties, task_state is protected', () => {
    const old = item('i1', { last_accessed: '2026-06-01T02:00:00Z' });
    const recent = item('i2', { last_accessed: '2026-06-01T11:59:00Z' });
    assert.ok(keepPriority(recent, 'hybrid', now) > keepPriority(old, 'hybrid', now));
    const task = item('i3', { content_type: 'task_state', last_accessed: '2026-06-01T00:00:00Z' });
    assert.ok(keepPriority(task, 'hybrid', now) - keepPriority(old, 'hybrid', now) >= 9);
    assert.ok(
      keepPriority(task, 'lru', now) > keepPriority(recent, 'lru', now),
      'task state outlives a newer message under lru too',
    );
    assert.deepEqual(
      chooseEvictions([task, old, recent], 10, 'hybrid', now).evicted.map((entry) => entry.item_id),
      ['i1'],
    );
  });

  it('frees nothing when every item is pinned', () => {
    assert.deepEqual(chooseEvictions([item('i1', { pinned: true })], 5, 'hybrid', now), { evicted: [], freed: 0 });
  });

  it('reads within a budget: pinned and task state first, then newest, in conversation order', () => {
    const items = [
      item('i1', { pinned: true }),
      item('i2'),
      item('i3', { content_type: 'task_state' }),
      item('i4'),
      item('i5'),
    ];
    const { items: chosen, truncated } = selectWithinBudget(items, 30);
    assert.deepEqual(
      chosen.map((entry) => entry.item_id),
      ['i1', 'i3', 'i5'],
    );
    assert.equal(truncated, true);
    assert.equal(selectWithinBudget(items, 1000).truncated, false);
  });
});
