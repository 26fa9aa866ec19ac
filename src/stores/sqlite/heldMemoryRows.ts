import { LruCache } from '../../core/util/lruCache.ts';
import { compactMemoryRow } from './compactMemoryRow.ts';
import type { MemoryRow } from './memoryTables.ts';

/**
 * Rows held by every user of the process together. A bound per user let the total grow with the
 * users loaded: 512 rows of ~2.4 KB each per user added ~100 MB of RSS under bench:load. 2,048
 * rows is four users' worth of duplicate-check candidates and recall results: about 2 MB held as
 * compact rows of the load's size (942 bytes each), 4.8 MB as node:sqlite returns them.
 */
export const MAX_HELD_ROWS = 2048;
/** Characters of content held in total, so a few long memories cannot pin tens of megabytes. */
export const MAX_HELD_CONTENT = 4_000_000;

/** Whose rows an entry is among: a user's MemoryRowCache, renewed when it is emptied. */
export type RowOwner = number;

/**
 * One least-recently-used budget of memory rows shared by all MemoryRowCaches of the process,
 * least recently used first across users. An entry is keyed by its owner and memory id (two stores
 * of one process may hold the same memory); a cache that was emptied takes a new owner, so its old
 * entries are never answered again and age out with the rest.
 */
export class HeldMemoryRows {
  private readonly rows: LruCache<string, MemoryRow>;
  private owners = 0;

  constructor(maxRows = MAX_HELD_ROWS, maxContent = MAX_HELD_CONTENT) {
    this.rows = new LruCache<string, MemoryRow>({
      maxEntries: maxRows,
      maxWeight: maxContent,
      weigh: (_key, row) => (typeof row.content === 'string' ? row.content.length : 0),
    });
  }

  /** An owner no entry is held under yet. */
  newOwner(): RowOwner {
    return ++this.owners;
  }

  get(owner: RowOwner, memoryId: string): MemoryRow | undefined {
    return this.rows.get(`${owner}:${memoryId}`);
  }

  /** Holds a fixed-shape copy of `row` (compactMemoryRow.ts: 40 % of the bytes of node:sqlite's). */
  set(owner: RowOwner, memoryId: string, row: MemoryRow): void {
    this.rows.set(`${owner}:${memoryId}`, compactMemoryRow(row));
  }

  delete(owner: RowOwner, memoryId: string): void {
    this.rows.delete(`${owner}:${memoryId}`);
  }

  /** Rows held, every owner's together (stale owners' too, until they age out). */
  get size(): number {
    return this.rows.size;
  }

  /** Characters of content held in total. */
  get content(): number {
    return this.rows.weight;
  }
}

/** The budget every user's MemoryRowCache of this process shares. */
export const processHeldRows = new HeldMemoryRows();
