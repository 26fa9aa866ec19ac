import type { MemoryMeta } from './memoryMeta.ts';
import { type MetaColumns, PINNED } from './metaColumns.ts';
import type { MetaTable } from './metaTable.ts';

/**
 * Ids of the pinned memories and of the memories carrying each tag, so listings filtered by them
 * (context assembly asks for the pinned on every call, the extraction queue for its pending tag at
 * start) skip the rest. A state built from rows indexes every memory as it adds it. A state loaded
 * from a persisted index makes the pinned set, and each tag's set, from its columns the first time
 * a listing asks for it: making them all at load was a tenth of a fresh process's first recall at
 * 100,000 memories, and one tag's set made on demand holds only the memories carrying it.
 */
export class PinnedAndTagged {
  readonly #table: MetaTable;
  #pinned: Set<string> | null;
  readonly #byTag = new Map<string, Set<string>>();
  /** Whether every tag carried has its set (a state built from rows); else a tag's set is made when first asked. */
  readonly #complete: boolean;

  constructor(table: MetaTable, loaded: boolean) {
    this.#table = table;
    this.#complete = !loaded;
    this.#pinned = loaded ? null : new Set();
  }

  pinned(): ReadonlySet<string> {
    if (this.#pinned === null) {
      const columns = this.#table.columns;
      this.#pinned = presentIdsWhere(columns, (row) => columns.flag(row, PINNED));
    }
    return this.#pinned;
  }

  /** The ids carrying any of `tags`. */
  taggedAny(tags: readonly string[]): Set<string> {
    const ids = new Set<string>();
    for (const tag of tags) for (const id of this.#tagged(tag)) ids.add(id);
    return ids;
  }

  #tagged(tag: string): ReadonlySet<string> {
    let ids = this.#byTag.get(tag);
    if (ids === undefined) {
      ids = new Set();
      if (!this.#complete) {
        const columns = this.#table.columns;
        ids = presentIdsWhere(columns, (row) => columns.hasTag(row, tag));
        this.#byTag.set(tag, ids);
      }
    }
    return ids;
  }

  /** After `meta` was stored: the sets that exist take it in. */
  add(meta: MemoryMeta): void {
    if (meta.pinned) this.#pinned?.add(meta.memory_id);
    for (const tag of meta.tags) {
      let ids = this.#byTag.get(tag);
      if (ids === undefined) {
        // Not made yet: made from the columns when first asked, this memory included.
        if (!this.#complete) continue;
        this.#byTag.set(tag, (ids = new Set()));
      }
      ids.add(meta.memory_id);
    }
  }

  /** Before `meta` changes or goes. */
  remove(meta: MemoryMeta): void {
    this.#pinned?.delete(meta.memory_id);
    for (const tag of meta.tags) this.#byTag.get(tag)?.delete(meta.memory_id);
  }
}

/**
 * The ids of the table's present rows that pass `test`, by a plain loop rather than the table's row
 * generator: a step result per row (100,000 at 100,000 memories) brought a collection a second after
 * a fresh process's first answer, at which V8 doubled its young generation (16 -> 32 MB,
 * docs/benchmarks.md).
 */
function presentIdsWhere(columns: MetaColumns, test: (row: number) => boolean): Set<string> {
  const ids = new Set<string>();
  for (let row = 0; row < columns.rows; row++) if (columns.present(row) && test(row)) ids.add(columns.ids.at(row)!);
  return ids;
}
