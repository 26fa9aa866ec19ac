import type { MemoryRecord } from '../domain/records.ts';
import type { MemoryFilter, MemoryStore } from '../ports/memoryStore.ts';
import { yieldToEventLoop } from '../util/yieldEvery.ts';

const PAGE = 500;

/**
 * Every memory matching the filter, oldest first, read page by page. Lifecycle jobs look at a
 * user's whole memory; `cap` bounds the work one call may do, and `truncated` says it was hit.
 */
export async function listAllMemories(
  store: MemoryStore,
  filter: MemoryFilter,
  cap = 10_000,
): Promise<{ items: MemoryRecord[]; truncated: boolean }> {
  const items: MemoryRecord[] = [];
  for (let offset = 0; items.length < cap; offset += PAGE) {
    const page = await store.listMemories({
      filter,
      sort: 'created',
      offset,
      limit: Math.min(PAGE, cap - items.length),
    });
    items.push(...page.items);
    // Each page is a turn of the event loop: a 50,000-memory listing is not one stretch.
    await yieldToEventLoop();
    if (page.items.length === 0 || offset + page.items.length >= page.total) return { items, truncated: false };
  }
  return { items, truncated: true };
}
