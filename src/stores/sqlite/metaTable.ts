import { SortedKeyIndex } from '../common/sortedKeyIndex.ts';
import type { SnapshotMetas } from './indexSnapshotFormat.ts';
import type { MemoryMeta } from './memoryMeta.ts';

/**
 * One user's metas by memory id, the part of a Map the state uses. A table restored from a
 * persisted index starts from the file's columns and makes a row's MemoryMeta the first time it
 * is asked for (then keeps that one object for the row's life: vector-index slots hold it, and
 * refreshes assign into it). Made metas are kept in a Map, so a lookup costs what it did before
 * once a row is in use; until then it is a binary search over the file's sorted ids.
 * Iteration is the store order of the rows, then metas added later in the order they came.
 */
export class MetaTable {
  readonly #byId = new Map<string, MemoryMeta>();
  readonly #loaded: SnapshotMetas | null;
  readonly #rowOf: SortedKeyIndex;
  /** Per loaded row: 1 while it is in the table (its meta made or not). */
  readonly #present: Uint8Array;
  readonly #made: Array<MemoryMeta | undefined>;
  #presentCount: number;
  /** Metas that are not loaded rows (or came back after being deleted), in the order they were set. */
  readonly #added = new Map<string, MemoryMeta>();

  constructor(loaded: SnapshotMetas | null = null) {
    this.#loaded = loaded;
    this.#rowOf = loaded === null ? new SortedKeyIndex() : new SortedKeyIndex(loaded.ids, loaded.idOrder);
    const rows = loaded === null ? 0 : loaded.ids.length;
    this.#present = new Uint8Array(rows).fill(1);
    this.#made = new Array<MemoryMeta | undefined>(rows);
    this.#presentCount = rows;
  }

  get size(): number {
    return this.#presentCount + this.#added.size;
  }

  get(memoryId: string): MemoryMeta | undefined {
    const known = this.#byId.get(memoryId);
    if (known !== undefined || this.#loaded === null) return known;
    const row = this.#rowOf.get(memoryId);
    if (row === undefined || this.#present[row] === 0) return undefined;
    return this.#make(row);
  }

  /** The meta of loaded row `row` while it is in the table, found without a search. */
  atRow(row: number): MemoryMeta | undefined {
    return this.#present[row] === 1 ? this.#make(row) : undefined;
  }

  has(memoryId: string): boolean {
    return this.get(memoryId) !== undefined;
  }

  set(memoryId: string, meta: MemoryMeta): void {
    this.#byId.set(memoryId, meta);
    const row = this.#rowOf.get(memoryId);
    if (row !== undefined && this.#present[row] === 1) this.#made[row] = meta;
    else this.#added.set(memoryId, meta);
  }

  delete(memoryId: string): void {
    this.#byId.delete(memoryId);
    if (this.#added.delete(memoryId)) return;
    const row = this.#rowOf.get(memoryId);
    if (row === undefined || this.#present[row] === 0) return;
    this.#present[row] = 0;
    this.#made[row] = undefined;
    this.#presentCount--;
  }

  /**
   * Makes the metas not made yet, a slice of rows per timer turn, starting `delayMs` after the call:
   * the first recall of a fresh process pays only for the rows it touches, and soon after, lookups
   * stop paying a binary search and a meta's making (which made later recalls a third slower).
   */
  makeRestLater(delayMs: number, rowsPerSlice: number): void {
    let row = 0;
    const slice = (): void => {
      const end = Math.min(this.#present.length, row + rowsPerSlice);
      for (; row < end; row++) if (this.#present[row] === 1) this.#make(row);
      if (row < this.#present.length) setTimeout(slice, 0).unref();
    };
    if (this.#present.length > 0) setTimeout(slice, delayMs).unref();
  }

  /** Loaded rows still in the table whose meta has not been made yet. */
  rowsNotMade(): number {
    let count = 0;
    for (let row = 0; row < this.#present.length; row++)
      if (this.#present[row] === 1 && this.#made[row] === undefined) count++;
    return count;
  }

  *values(): Generator<MemoryMeta> {
    for (let row = 0; row < this.#present.length; row++) if (this.#present[row] === 1) yield this.#make(row);
    yield* this.#added.values();
  }

  #make(row: number): MemoryMeta {
    let meta = this.#made[row];
    if (meta === undefined) {
      meta = this.#loaded!.meta(row);
      this.#made[row] = meta;
      this.#byId.set(meta.memory_id, meta);
    }
    return meta;
  }
}
