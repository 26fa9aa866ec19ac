import type { ListQuery } from '../../core/ports/memoryStore.ts';
import type { MemoryMeta } from './memoryMeta.ts';

type Comparator = (a: MemoryMeta, b: MemoryMeta) => number;

/** Newest first breaks ties, then id, so paging is stable across calls. */
const byCreatedThenId: Comparator = (a, b) => b.created_ms - a.created_ms || (a.memory_id < b.memory_id ? -1 : a.memory_id > b.memory_id ? 1 : 0);

const SORTS: Record<ListQuery['sort'], Comparator> = {
  recency: (a, b) => b.last_accessed_ms - a.last_accessed_ms || byCreatedThenId(a, b),
  importance: (a, b) => b.importance - a.importance || byCreatedThenId(a, b),
  access_count: (a, b) => b.access_count - a.access_count || byCreatedThenId(a, b),
  created: byCreatedThenId,
};

/** The page of ids to show and how many rows matched in all. */
export function pageOfMatches(metas: Iterable<MemoryMeta>, accept: (meta: MemoryMeta) => boolean, query: ListQuery): { ids: string[]; total: number } {
  const matched: MemoryMeta[] = [];
  for (const meta of metas) if (accept(meta)) matched.push(meta);
  matched.sort(SORTS[query.sort]);
  const offset = Math.max(0, Math.floor(query.offset));
  const limit = Math.max(0, Math.floor(query.limit));
  return { ids: matched.slice(offset, offset + limit).map((meta) => meta.memory_id), total: matched.length };
}
