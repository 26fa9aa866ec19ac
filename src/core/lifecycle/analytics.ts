import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import { LIMITS, requireId } from '../validation.ts';
import { listAllMemories } from './listAll.ts';

export type Bucket = 'day' | 'week' | 'month';

export interface MemoryAnalytics {
  user_id: string;
  totals: { live: number; deleted: number; pinned: number; embedded: number; sessions: number; working_items: number };
  by_category: Record<string, number>;
  by_subtype: Record<string, number>;
  by_source: Record<string, number>;
  /** Memories created per bucket (UTC), oldest first, last `buckets` buckets. */
  created_over_time: Array<{ bucket: string; count: number; by_category: Record<string, number> }>;
  most_accessed: Array<{ memory_id: string; content_preview: string; access_count: number; last_accessed: string }>;
  recall_activity: { access_log_entries: number; total_accesses: number; accessed_memories: number; source: string };
  truncated: boolean;
}

const TOP = 10;

/**
 * get_memory_analytics. The store port has no access-log query, so recall activity comes from
 * the store's stats (access_log_entries) and the memories' own access counts.
 */
export async function memoryAnalytics(
  deps: CoreDeps,
  userId: string,
  options: { bucket?: Bucket; buckets?: number } = {},
): Promise<MemoryAnalytics> {
  const user = requireId(userId, 'user_id');
  const bucket = options.bucket ?? 'week';
  if (!['day', 'week', 'month'].includes(bucket))
    throw new MemoryError('INVALID_INPUT', 'bucket must be day, week or month.', { details: { field: 'bucket' } });
  const bucketCount = Math.max(1, Math.min(LIMITS.analyticsBuckets, Math.floor(options.buckets ?? 12)));
  const [stats, listed, top] = await Promise.all([
    deps.store.stats(user),
    listAllMemories(deps.store, { user_id: user, state: 'live', include_superseded: true }, 50_000),
    deps.store.listMemories({
      filter: { user_id: user, state: 'live', include_superseded: true },
      sort: 'access_count',
      offset: 0,
      limit: TOP,
    }),
  ]);
  const bySource: Record<string, number> = {};
  const byCategory: Record<string, number> = {};
  const bySubtype: Record<string, number> = {};
  const perBucket = new Map<string, { count: number; by_category: Record<string, number> }>();
  let accesses = 0;
  let accessed = 0;
  for (const memory of listed.items) {
    bySource[memory.source_type] = (bySource[memory.source_type] ?? 0) + 1;
    byCategory[memory.memory_category] = (byCategory[memory.memory_category] ?? 0) + 1;
    const subtype = `${memory.memory_category}.${memory.memory_subtype}`;
    bySubtype[subtype] = (bySubtype[subtype] ?? 0) + 1;
    accesses += memory.access_count;
    if (memory.access_count > 0) accessed++;
    const key = bucketKey(new Date(memory.created_at), bucket);
    const entry = perBucket.get(key) ?? { count: 0, by_category: {} };
    entry.count++;
    entry.by_category[memory.memory_category] = (entry.by_category[memory.memory_category] ?? 0) + 1;
    perBucket.set(key, entry);
  }
  const now = deps.clock.now();
  const keys: string[] = [];
  for (let cursor = new Date(now); keys.length < bucketCount; cursor = step(cursor, bucket)) {
    const key = bucketKey(cursor, bucket);
    if (!keys.includes(key)) keys.push(key);
  }
  return {
    user_id: user,
    totals: {
      live: stats.memories,
      deleted: stats.deleted,
      pinned: stats.pinned,
      embedded: stats.embedded,
      sessions: stats.sessions,
      working_items: stats.working_items,
    },
    by_category: byCategory,
    by_subtype: bySubtype,
    by_source: bySource,
    created_over_time: keys.reverse().map((key) => ({
      bucket: key,
      count: perBucket.get(key)?.count ?? 0,
      by_category: perBucket.get(key)?.by_category ?? {},
    })),
    most_accessed: top.items
      .filter((memory) => memory.access_count > 0)
      .map((memory) => ({
        memory_id: memory.memory_id,
        content_preview: memory.content.slice(0, 160),
        access_count: memory.access_count,
        last_accessed: memory.last_accessed,
      })),
    recall_activity: {
      access_log_entries: stats.access_log_entries,
      total_accesses: accesses,
      accessed_memories: accessed,
      source: 'store stats and per-memory access counts',
    },
    truncated: listed.truncated,
  };
}

/** UTC bucket label: 2026-03-14 (day), the Monday 2026-03-09 (week), 2026-03 (month). */
export function bucketKey(date: Date, bucket: Bucket): string {
  if (bucket === 'month') return date.toISOString().slice(0, 7);
  if (bucket === 'day') return date.toISOString().slice(0, 10);
  const monday = new Date(
    Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - ((date.getUTCDay() + 6) % 7)),
  );
  return monday.toISOString().slice(0, 10);
}

function step(date: Date, bucket: Bucket): Date {
  if (bucket === 'month') return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1));
  return new Date(date.getTime() - (bucket === 'day' ? 1 : 7) * 86_400_000);
}
