import { SortedKeyIndex } from '../common/sortedKeyIndex.ts';
import type { SnapshotMetas } from './indexSnapshotFormat.ts';
import { MetaColumns } from './metaColumns.ts';
import { MetaRow } from './metaRow.ts';
import type { MemoryMeta } from './memoryMeta.ts';

/**
 * One user's metas by memory id, held as columns (metaColumns.ts) with no object per memory: a
 * lookup finds the row (a binary search over a persisted index's sorted ids, a Map for rows
 * added since) and answers a MetaRow read from the columns, made for the caller and dropped after.
 * A row keeps its memory for the table's life: a memory forgotten and stored again gets its old row
 * back, so rows are the store order neighbour walks follow and a row number can stand for the id.
 * Iteration is row order.
 */
export class MetaTable {
  readonly columns: MetaColumns;
  readonly #rowOf: SortedKeyIndex;
  #presentCount: number;

  constructor(loaded: SnapshotMetas | null = null) {
    this.columns = new MetaColumns(loaded === null ? null : loaded.columns);
    this.#rowOf = loaded === null ? new SortedKeyIndex() : new SortedKeyIndex(loaded.ids, loaded.idOrder);
    this.#presentCount = this.columns.rows;
  }

  get size(): number {
    return this.#presentCount;
  }

  /** Rows ever used, present or not: the row numbers run below it. */
  get rowCount(): number {
    return this.columns.rows;
  }

  /** The row holding `memoryId`, present or forgotten; undefined when it never had one. */
  rowOf(memoryId: string): number | undefined {
    return this.#rowOf.get(memoryId);
  }

  /** The row of `memoryId` while its memory is in the table. */
  presentRowOf(memoryId: string): number | undefined {
    const row = this.#rowOf.get(memoryId);
    return row !== undefined && this.columns.present(row) ? row : undefined;
  }

  get(memoryId: string): MemoryMeta | undefined {
    const row = this.presentRowOf(memoryId);
    return row === undefined ? undefined : new MetaRow(this.columns, row);
  }

  /** The meta of row `row` while its memory is in the table. */
  atRow(row: number): MemoryMeta | undefined {
    return this.columns.present(row) ? new MetaRow(this.columns, row) : undefined;
  }

  has(memoryId: string): boolean {
    return this.presentRowOf(memoryId) !== undefined;
  }

  /** Stores `meta` in its memory's row (a new row at the end for a memory never seen); the row. */
  set(memoryId: string, meta: MemoryMeta): number {
    const row = this.#rowOf.get(memoryId);
    if (row === undefined) {
      const added = this.columns.append(meta);
      this.#rowOf.set(memoryId, added);
      this.#presentCount++;
      return added;
    }
    if (!this.columns.present(row)) this.#presentCount++;
    this.columns.write(row, meta);
    return row;
  }

  delete(memoryId: string): void {
    const row = this.presentRowOf(memoryId);
    if (row === undefined) return;
    this.columns.markAbsent(row);
    this.#presentCount--;
  }

  /**
   * A test over rows made of a test over metas: one MetaRow moved from row to row, so a filter
   * over thousands of rows makes no object per row. `test` must not keep the meta it is given.
   */
  rowTest(test: (meta: MemoryMeta) => boolean): (row: number) => boolean {
    const cursor = this.cursor();
    return (row) => {
      if (!this.columns.present(row)) return false;
      cursor.row = row;
      return test(cursor);
    };
  }

  /** A view its holder moves from row to row (`cursor.row = n`), for scans that keep nothing. */
  cursor(): MetaRow {
    return new MetaRow(this.columns, 0);
  }

  /** Rows whose memory is in the table, in row order. */
  *rows(): Generator<number> {
    for (let row = 0; row < this.columns.rows; row++) if (this.columns.present(row)) yield row;
  }

  *values(): Generator<MemoryMeta> {
    for (const row of this.rows()) yield new MetaRow(this.columns, row);
  }
}
