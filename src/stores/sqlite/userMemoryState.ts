import { turnFactsOf } from '../../core/domain/dialogTurn.ts';
import type { MemoryRecord, StoredEmbedding } from '../../core/domain/records.ts';
import { LexicalIndex } from '../common/lexicalIndex.ts';
import { analyzeDocument, type AnalyzedDocument } from '../../core/text/analyzer.ts';
import { BinaryVectorIndex } from './binaryVectorIndex.ts';
import type { SnapshotMetas } from './indexSnapshotFormat.ts';
import { metadataFactsOf, metaOf } from './memoryMeta.ts';
import { DELETED, SOURCE_SESSION, TIME } from './metaColumns.ts';
import { PinnedAndTagged } from './pinnedAndTagged.ts';
import { plainMeta } from './metaRow.ts';
import type { MetaCandidates } from './memoryListing.ts';
import { MetaTable } from './metaTable.ts';
import { MemoryRowCache } from './memoryRowCache.ts';
import type { MemoryMeta, MetaSource } from './memoryMeta.ts';

export function vectorIndexKey(model: string, dims: number): string {
  return `${dims}:${model}`;
}

/**
 * What this process keeps in memory for one user: filter metadata of every row (deleted ones
 * too, since listing can ask for the trash) as columns by row (metaTable.ts), and search indexes
 * over live rows only; the vector indexes' slots hold row numbers. The lexical
 * index and each model's vector index are built on first use and then kept in step by
 * `applyMemory` / `forget`, whether the write came from this process or from the change log.
 */
export class UserMemoryState {
  readonly metas: MetaTable;
  lexical: LexicalIndex | null = null;
  readonly vectorIndexes = new Map<string, BinaryVectorIndex<number>>();
  /**
   * Indexes being built in slices (sqliteStore yields between pages). Writes that land meanwhile
   * are applied to them as to finished ones, so a build ends current whatever committed during it.
   */
  lexicalBuilding: { index: LexicalIndex; done: Promise<void> } | null = null;
  /**
   * While the metadata is loaded in slices: the rowid read up to, and the load's promise. A write
   * to a row not read yet is skipped (its page, read later, has the current row), so the id order
   * stays the rowid order neighbour lookups rely on.
   */
  loading: { afterRow: number; done: Promise<void> | null } | null = null;
  readonly vectorBuilding = new Map<string, { index: BinaryVectorIndex<number>; model: string; done: Promise<void> }>();
  private readonly vectorModels = new Map<string, string>();
  /** Pinned and tagged memories, so listings filtered by them skip the rest (pinnedAndTagged.ts). */
  readonly #pinnedAndTagged: PinnedAndTagged;
  private readonly freezes = new Set<FrozenMetas>();
  /** Moves on every change to the metadata or the indexes; a persisted index is current while it matches. */
  revision = 0;
  /** Where the lexical index came from: built from the rows, or loaded from a persisted index. */
  origin: 'rows' | 'persisted' = 'rows';
  /** Rows reads fetched lately; every change below reaches them too. */
  readonly rows = new MemoryRowCache();

  /** Empty, or holding a persisted index's metas (in store order) in the file's columns. */
  constructor(loaded: SnapshotMetas | null = null) {
    this.metas = new MetaTable(loaded);
    this.#pinnedAndTagged = new PinnedAndTagged(this.metas, loaded !== null);
  }

  /**
   * A state holding `metas` (in store order) and a finished lexical index, as a persisted index
   * restores it. Its pinned and tag sets are made when a listing first filters by them.
   */
  static restore(metas: SnapshotMetas, lexical: LexicalIndex): UserMemoryState {
    const state = new UserMemoryState(metas);
    state.lexical = lexical;
    state.origin = 'persisted';
    return state;
  }

  /** Every meta in store order (the order neighbour lookups walk): what a persisted index saves. */
  orderedMetas(): MemoryMeta[] {
    return [...this.metas.values()];
  }

  /**
   * The metas in store order as they are now, read later while they go on changing (a persisted
   * index's save, in slices): until `release`, the first change of a meta keeps a copy of it as it
   * was (or that it was absent). Metas stored after this call are not part of it.
   */
  freezeMetas(): FrozenMetas {
    const frozen = new FrozenMetas(this.metas, () => this.freezes.delete(frozen));
    this.freezes.add(frozen);
    return frozen;
  }

  /** Before row `row`'s meta changes: every frozen view that has not kept it yet keeps it as it is. */
  private beforeChange(row: number | undefined): void {
    if (row === undefined || this.freezes.size === 0) return;
    for (const frozen of this.freezes) frozen.keep(row);
  }

  /**
   * Installs or refreshes one row; `embedding` is the row's stored vector, null when it has none.
   * `analyzed` is the row's `analyzeDocument` when the writer already has it (an insert analyses
   * its row for the lexical_documents table), so it is not worked out twice.
   */
  applyMemory(memory: MemoryRecord, embedding: StoredEmbedding | null, analyzed?: AnalyzedDocument): void {
    this.rows.drop(memory.memory_id);
    const next = metaOf(memory, metadataFactsOf(memory, turnFactsOf(memory)));
    this.revision++;
    const before = this.metas.get(memory.memory_id);
    if (before === undefined && this.loading !== null) return;
    this.beforeChange(this.metas.rowOf(memory.memory_id));
    if (before !== undefined) this.unindex(before);
    const row = this.metas.set(memory.memory_id, next);
    this.index(next);
    const live = !next.deleted;
    const lexicalIndexes = [this.lexical, this.lexicalBuilding?.index].filter((index) => index != null);
    if (lexicalIndexes.length > 0) {
      const document = live ? (analyzed ?? analyzeDocument(memory)) : null;
      for (const index of lexicalIndexes) {
        if (document !== null) index.upsert(memory.memory_id, document);
        else index.remove(memory.memory_id);
      }
    }
    const vectorTargets: [BinaryVectorIndex<number>, string | undefined][] = [
      ...[...this.vectorIndexes].map(([key, index]): [BinaryVectorIndex<number>, string | undefined] => [
        index,
        this.vectorModels.get(key),
      ]),
      ...[...this.vectorBuilding.values()].map((build): [BinaryVectorIndex<number>, string | undefined] => [
        build.index,
        build.model,
      ]),
    ];
    for (const [index, model] of vectorTargets) {
      const matches = live && embedding !== null && embedding.model === model && embedding.vector.length === index.dims;
      if (matches) index.upsert(memory.memory_id, embedding.vector, row);
      else index.remove(memory.memory_id);
    }
  }

  /** The row of `memoryId` while it is stored and not in the trash: what a vector index's slot holds. */
  liveRowOf(memoryId: string): number | undefined {
    const row = this.metas.presentRowOf(memoryId);
    return row === undefined || this.metas.columns.flag(row, DELETED) ? undefined : row;
  }

  /** Whether a refresh must read vectors: some vector index exists or is being built. */
  get wantsVectors(): boolean {
    return this.vectorIndexes.size > 0 || this.vectorBuilding.size > 0;
  }

  /** Bulk load: filter metadata only; search indexes are built later, on first use. */
  addMeta(source: MetaSource): void {
    const meta = metaOf(source, source.derived);
    this.metas.set(source.memory_id, meta);
    this.index(meta);
  }

  /**
   * The rows a listing must look at: the pinned or tagged subset when the filter requires it,
   * else every row. The caller still applies the whole filter to each.
   */
  candidatesFor(filter: { pinned?: boolean; tags?: readonly string[] }): MetaCandidates {
    const ids =
      filter.pinned === true
        ? this.#pinnedAndTagged.pinned()
        : filter.tags && filter.tags.length > 0
          ? this.#pinnedAndTagged.taggedAny(filter.tags)
          : null;
    if (ids === null) return { table: this.metas, rows: null };
    return { table: this.metas, rows: [...ids].flatMap((id) => this.metas.presentRowOf(id) ?? []) };
  }

  private index(meta: MemoryMeta): void {
    this.#pinnedAndTagged.add(meta);
  }

  private unindex(meta: MemoryMeta): void {
    this.#pinnedAndTagged.remove(meta);
  }

  /**
   * Up to `radius` ids stored just before and after `memoryId` that pass `accept`, nearest first,
   * never crossing a conversation boundary (another source_session, or a time gap over
   * `maxGapMs`); null when the id is unknown. Forgotten ids leave holes the walk steps over.
   */
  adjacent(
    memoryId: string,
    radius: number,
    maxGapMs: number,
    accept: (meta: MemoryMeta) => boolean,
  ): { before: string[]; after: string[] } | null {
    const at = this.metas.presentRowOf(memoryId);
    if (at === undefined) return null;
    const columns = this.metas.columns;
    const accepts = this.metas.rowTest(accept);
    const walk = (step: -1 | 1): string[] => {
      const found: string[] = [];
      let session = columns.string(at, SOURCE_SESSION);
      let time = columns.number(at, TIME);
      for (let row = at + step; row >= 0 && row < columns.rows && found.length < radius; row += step) {
        if (!columns.present(row) || columns.flag(row, DELETED)) continue;
        const rowSession = columns.string(row, SOURCE_SESSION);
        const rowTime = columns.number(row, TIME);
        if (rowSession !== session || Math.abs(rowTime - time) > maxGapMs) break;
        session = rowSession;
        time = rowTime;
        if (accepts(row)) found.push(columns.ids.at(row)!);
      }
      return found;
    };
    return { before: walk(-1), after: walk(1) };
  }

  /** Access bumps change sort keys only; the search indexes are untouched. */
  touch(memoryId: string, accessCount: number, lastAccessed: string): void {
    this.rows.touch(memoryId, accessCount, lastAccessed);
    const row = this.metas.presentRowOf(memoryId);
    if (row === undefined) return;
    this.revision++;
    this.beforeChange(row);
    this.metas.columns.writeAccess(row, accessCount, Date.parse(lastAccessed));
  }

  forget(memoryId: string): void {
    this.rows.drop(memoryId);
    this.revision++;
    const meta = this.metas.get(memoryId);
    this.beforeChange(this.metas.rowOf(memoryId));
    if (meta !== undefined) this.unindex(meta);
    this.metas.delete(memoryId);
    this.lexical?.remove(memoryId);
    this.lexicalBuilding?.index.remove(memoryId);
    for (const index of this.vectorIndexes.values()) index.remove(memoryId);
    for (const build of this.vectorBuilding.values()) build.index.remove(memoryId);
  }

  /** The finished vector indexes with the model each was built for. */
  vectorIndexList(): Array<{ model: string; index: BinaryVectorIndex<number> }> {
    return [...this.vectorIndexes].flatMap(([key, index]) => {
      const model = this.vectorModels.get(key);
      return model === undefined ? [] : [{ model, index }];
    });
  }

  addVectorIndex(model: string, index: BinaryVectorIndex<number>): void {
    this.revision++;
    const key = vectorIndexKey(model, index.dims);
    this.vectorIndexes.set(key, index);
    this.vectorModels.set(key, model);
  }
}

/** Metas in store order as they were when frozen (UserMemoryState.freezeMetas). */
export class FrozenMetas {
  /** Rows there when frozen: later rows are not part of it. */
  readonly count: number;
  readonly #live: MetaTable;
  /** Rows changed since: a copy of their meta as it was, or null when the row was absent. */
  readonly #kept = new Map<number, MemoryMeta | null>();
  readonly #release: () => void;

  constructor(live: MetaTable, release: () => void) {
    this.count = live.rowCount;
    this.#live = live;
    this.#release = release;
  }

  /**
   * The meta of row `row` as it was when frozen, a plain object; undefined when it had none (forgotten).
   * Plain, because the encoder reads fields by name in a loop (`meta[field]`), which through a
   * MetaRow's getters made a save of many small users several times slower.
   */
  at(row: number): MemoryMeta | undefined {
    const kept = this.#kept.get(row);
    if (kept !== undefined) return kept ?? undefined;
    const live = this.#live.atRow(row);
    return live === undefined ? undefined : plainMeta(live);
  }

  /** Before row `row` changes: keeps a copy of it as it is, unless one is kept already or it came after the freeze. */
  keep(row: number): void {
    if (row >= this.count || this.#kept.has(row)) return;
    const meta = this.#live.atRow(row);
    this.#kept.set(row, meta === undefined ? null : plainMeta(meta));
  }

  /** Stops keeping copies; `at` must not be called after. */
  release(): void {
    this.#release();
    this.#kept.clear();
  }
}
