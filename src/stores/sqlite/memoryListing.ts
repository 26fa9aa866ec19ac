import type { ListQuery } from '../../core/ports/memoryStore.ts';
import type { MemoryMeta } from './memoryMeta.ts';
import type { MetaTable } from './metaTable.ts';

/** The rows a listing looks at: every row of `table` (rows null) or the listed ones. */
export interface MetaCandidates {
  readonly table: MetaTable;
  readonly rows: readonly number[] | null;
}

type Comparator = (a: MemoryMeta, b: MemoryMeta) => number;

/** Newest first breaks ties, then id, so paging is stable across calls. */
const byCreatedThenId: Comparator = (a, b) =>
  b.created_ms - a.created_ms || (a.memory_id < b.memory_id ? -1 : a.memory_id > b.memory_id ? 1 : 0);

const SORTS: Record<ListQuery['sort'], Comparator> = {
  recency: (a, b) => b.last_accessed_ms - a.last_accessed_ms || byCreatedThenId(a, b),
  importance: (a, b) => b.importance - a.importance || byCreatedThenId(a, b),
  access_count: (a, b) => b.access_count - a.access_count || byCreatedThenId(a, b),
  created: byCreatedThenId,
};

/**
 * The page of ids to show and how many rows matched in all. Only the first offset + limit rows
 * in sort order are kept (a bounded heap), so a page of 200 out of 100,000 never sorts them all.
 */
export function pageOfMatches(
  candidates: MetaCandidates,
  accept: (meta: MemoryMeta) => boolean,
  query: ListQuery,
): { ids: string[]; total: number } {
  const { table, rows } = candidates;
  const offset = Math.max(0, Math.floor(query.offset));
  const limit = Math.max(0, Math.floor(query.limit));
  const compare = SORTS[query.sort];
  const keep = offset + limit;
  // Max-heap on sort order: the root is the row that would leave first when a better one comes.
  // Rows are tested and compared through one moving view; only the rows kept get a view of their own.
  const heap: MemoryMeta[] = [];
  let total = 0;
  const accepts = table.rowTest(accept);
  const probe = table.cursor();
  const offer = (row: number): void => {
    if (!accepts(row)) return;
    total++;
    if (keep === 0) return;
    probe.row = row;
    if (heap.length < keep) {
      heap.push(table.atRow(row)!);
      siftUp(heap, heap.length - 1, compare);
    } else if (compare(probe, heap[0]) < 0) {
      heap[0] = table.atRow(row)!;
      siftDown(heap, 0, compare);
    }
  };
  if (rows === null) for (let row = 0; row < table.rowCount; row++) offer(row);
  else for (const row of rows) offer(row);
  heap.sort(compare);
  return { ids: heap.slice(offset, keep).map((meta) => meta.memory_id), total };
}

function siftUp(heap: MemoryMeta[], index: number, compare: Comparator): void {
  while (index > 0) {
    const parent = (index - 1) >> 1;
    if (compare(heap[index], heap[parent]) <= 0) return;
    [heap[index], heap[parent]] = [heap[parent], heap[index]];
    index = parent;
  }
}

function siftDown(heap: MemoryMeta[], index: number, compare: Comparator): void {
  for (;;) {
    const left = 2 * index + 1;
    const right = left + 1;
    let largest = index;
    if (left < heap.length && compare(heap[left], heap[largest]) > 0) largest = left;
    if (right < heap.length && compare(heap[right], heap[largest]) > 0) largest = right;
    if (largest === index) return;
    [heap[index], heap[largest]] = [heap[largest], heap[index]];
    index = largest;
  }
}
