import type { SQLOutputValue } from 'node:sqlite';
import { LruCache } from '../../core/util/lruCache.ts';

export type MemoryRow = Record<string, SQLOutputValue>;

/** Rows kept, least recently used dropped first: about 10 MB of text at most. */
export const MAX_ROWS = 4_000;
export const MAX_CHARS_HELD = 4_000_000;

/**
 * Recently read long-term memory rows, as SQLite returned them: a recall reads the full rows of 50
 * candidates and their conversation neighbours, and the next recall of the same user reads most of
 * them again (at 100,000 memories the reads were a third of a recall's CPU, in a LoCoMo
 * conversation two thirds). A hit is turned into a record exactly as a read is
 * (rowMapping.rowToMemory), so every caller still gets its own objects.
 *
 * Kept in step by the store, like the per-user metadata: a row is dropped when this process's
 * commit writes it (insert, update, access bump, hard delete; a user's deletion empties the
 * cache) and when the change log shows another process wrote it; a change log that was reset
 * empties the cache. Rows are only ever cached as read inside a read transaction, after that
 * catch-up.
 */
export class MemoryRowCache {
  readonly #rows = new LruCache<string, MemoryRow>({
    maxEntries: MAX_ROWS,
    maxWeight: MAX_CHARS_HELD,
    weigh: (_id, row) => rowChars(row),
  });

  /** The cached row of `memoryId` when it belongs to `userId`. */
  get(userId: string, memoryId: string): MemoryRow | undefined {
    const row = this.#rows.get(memoryId);
    return row !== undefined && row.user_id === userId ? row : undefined;
  }

  remember(row: MemoryRow): void {
    this.#rows.set(row.memory_id as string, row);
  }

  forget(memoryId: string): void {
    this.#rows.delete(memoryId);
  }

  clear(): void {
    this.#rows.clear();
  }

  get size(): number {
    return this.#rows.size;
  }
}

function rowChars(row: MemoryRow): number {
  let chars = 0;
  for (const value of Object.values(row)) if (typeof value === 'string') chars += value.length;
  return chars;
}
