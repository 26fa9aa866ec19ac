import type { EvictionPolicy, WorkingItemRecord } from '../domain/records.ts';

/**
 * Keep-priority of a working-memory item (seed 000 §8.2): higher stays longer.
 * lru orders by last access only; relevance by relevance_score; hybrid is the spec's formula.
 * task_state carries the spec's +10 in every policy, so an agent's plan outlives chatter.
 */
export function keepPriority(item: WorkingItemRecord, policy: EvictionPolicy, now: Date): number {
  const ageSeconds = Math.max(0, (now.getTime() - Date.parse(item.last_accessed)) / 1000);
  const recency = 1 / (1 + ageSeconds / 3600);
  const taskBonus = item.content_type === 'task_state' ? 10 : 0;
  switch (policy) {
    case 'lru':
      // Sequence breaks ties between items touched in the same millisecond.
      return Date.parse(item.last_accessed) / 1000 + item.sequence_num * 1e-6 + taskBonus * 1e9;
    case 'relevance':
      return item.relevance_score * 100 + item.sequence_num * 1e-6 + taskBonus;
    case 'hybrid':
      return item.relevance_score * 100 + recency * 10 + item.sequence_num * 1e-9 + taskBonus;
  }
}

/** Items to evict, lowest priority first, until `tokensNeeded` are freed; pinned items are never chosen. */
export function chooseEvictions(
  items: readonly WorkingItemRecord[],
  tokensNeeded: number,
  policy: EvictionPolicy,
  now: Date,
): { evicted: WorkingItemRecord[]; freed: number } {
  const evictable = items
    .filter((item) => !item.pinned)
    .map((item) => ({ item, priority: keepPriority(item, policy, now) }))
    .sort((a, b) => a.priority - b.priority);
  const evicted: WorkingItemRecord[] = [];
  let freed = 0;
  for (const { item } of evictable) {
    if (freed >= tokensNeeded) break;
    evicted.push(item);
    freed += item.token_count;
  }
  return { evicted, freed };
}

/**
 * Which items fit a read budget: pinned and task_state first, then the most recent,
 * returned in conversation order.
 */
export function selectWithinBudget(
  items: readonly WorkingItemRecord[],
  budget: number,
): { items: WorkingItemRecord[]; truncated: boolean } {
  const byPreference = [...items].sort((a, b) => rank(b) - rank(a) || b.sequence_num - a.sequence_num);
  const chosen = new Set<WorkingItemRecord>();
  let used = 0;
  for (const item of byPreference) {
    if (used + item.token_count > budget) continue;
    chosen.add(item);
    used += item.token_count;
  }
  return { items: items.filter((item) => chosen.has(item)), truncated: chosen.size < items.length };
}

function rank(item: WorkingItemRecord): number {
  return (item.pinned ? 2 : 0) + (item.content_type === 'task_state' ? 1 : 0);
}
