import type { MemoryRecord } from '../../core/domain/records.ts';
import { processHeldRows, type HeldMemoryRows, type RowOwner } from './heldMemoryRows.ts';
import { readMemoryRows, type MemoryRow } from './memoryTables.ts';
import { rowToMemory } from './rowMapping.ts';
import type { StatementCache } from './statementCache.ts';

/**
 * The long_term_memories rows of one user that reads fetched lately (the columns as SQLite returned them), so
 * the next read of the same memory (the duplicate check of a store reads five candidates, recall
 * reads what it returns) parses it without a statement. Each caller still gets its own record.
 *
 * Kept in step by the user's UserMemoryState, which every committed write of a memory reaches,
 * whoever made it: a changed or forgotten memory's row is dropped, an access bump is applied to
 * the row held (the values its UPDATE returned). When the state is dropped, so is this; any commit
 * of another process empties it (otherProcessChanges.ts), as it does the working-memory cache.
 *
 * The rows live in one budget shared by every user of the process (heldMemoryRows.ts), so what
 * the process holds does not grow with the number of users loaded.
 */
export class MemoryRowCache {
  /** Renewed by clear(): the rows held under the old one are never answered again. */
  private owner: RowOwner;

  private readonly held: HeldMemoryRows;

  constructor(held: HeldMemoryRows = processHeldRows) {
    this.held = held;
    this.owner = held.newOwner();
  }

  /** Reads `memoryIds` (deduplicated, in no particular order; absent ids are left out): held rows first, the rest from SQLite. */
  read(sql: StatementCache, userId: string, memoryIds: readonly string[]): MemoryRecord[] {
    const records: MemoryRecord[] = [];
    const missing: string[] = [];
    for (const memoryId of new Set(memoryIds)) {
      const row = this.held.get(this.owner, memoryId);
      if (row === undefined) missing.push(memoryId);
      else records.push(rowToMemory(row));
    }
    for (const row of readMemoryRows(sql, userId, missing)) {
      // Parsed first: a damaged row fails this read as it would uncached, and is not kept.
      records.push(rowToMemory(row));
      this.held.set(this.owner, String(row.memory_id), row);
    }
    return records;
  }

  /** The row held for `memoryId`, unparsed, or undefined: for a read that needs a few of its columns only. */
  heldRow(memoryId: string): MemoryRow | undefined {
    return this.held.get(this.owner, memoryId);
  }

  /** A row this process just committed (memoryRowOf of the record it wrote): the next read need not fetch it. */
  remember(row: MemoryRow): void {
    this.held.set(this.owner, String(row.memory_id), row);
  }

  /** Another process committed: it may have written a row without a change-log entry (a repair by hand, say). */
  clear(): void {
    this.owner = this.held.newOwner();
  }

  /** The memory's row changed (or went): the next read fetches it. */
  drop(memoryId: string): void {
    this.held.delete(this.owner, memoryId);
  }

  /** An access bump committed: the row held takes the access_count and last_accessed its UPDATE returned. */
  touch(memoryId: string, accessCount: number, lastAccessed: string): void {
    const row = this.held.get(this.owner, memoryId);
    if (row !== undefined)
      this.held.set(this.owner, memoryId, { ...row, access_count: accessCount, last_accessed: lastAccessed });
  }
}
