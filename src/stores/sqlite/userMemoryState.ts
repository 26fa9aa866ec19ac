import { turnFactsOf } from '../../core/domain/dialogTurn.ts';
import type { MemoryRecord, StoredEmbedding } from '../../core/domain/records.ts';
import { LexicalIndex } from '../common/lexicalIndex.ts';
import { analyzeDocument, type AnalyzedDocument } from '../../core/text/analyzer.ts';
import { SortedKeyIndex } from '../common/sortedKeyIndex.ts';
import { BinaryVectorIndex } from './binaryVectorIndex.ts';
import type { SnapshotMetas } from './indexSnapshotFormat.ts';
import { metadataFactsOf, metaOf } from './memoryMeta.ts';
import { MetaTable } from './metaTable.ts';
import { MemoryRowCache } from './memoryRowCache.ts';
import type { MemoryMeta, MetaSource } from './memoryMeta.ts';

export function vectorIndexKey(model: string, dims: number): string {
  return `${dims}:${model}`;
}

/**
 * What this process keeps in memory for one user: filter metadata of every row (deleted ones
 * too, since listing can ask for the trash), and search indexes over live rows only. The lexical
 * index and each model's vector index are built on first use and then kept in step by
 * `applyMemory` / `forget`, whether the write came from this process or from the change log.
 */
export class UserMemoryState {
  readonly metas: MetaTable;
  lexical: LexicalIndex | null = null;
  readonly vectorIndexes = new Map<string, BinaryVectorIndex<MemoryMeta>>();
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
  readonly vectorBuilding = new Map<
    string,
    { index: BinaryVectorIndex<MemoryMeta>; model: string; done: Promise<void> }
  >();
  private readonly vectorModels = new Map<string, string>();
  /** Pinned and tagged memories, so listings filtered by them (context assembly asks on every call) skip the rest. */
  private readonly pinned = new Set<string>();
  private readonly byTag = new Map<string, Set<string>>();
  /** Ids in the order they were stored (rowid order at load, then appended), for neighbour lookups. */
  private readonly order: string[];
  private readonly position: SortedKeyIndex;
  private readonly freezes = new Set<FrozenMetas>();
  /** Moves on every change to the metadata or the indexes; a persisted index is current while it matches. */
  revision = 0;
  /** Where the lexical index came from: built from the rows, or loaded from a persisted index. */
  origin: 'rows' | 'persisted' = 'rows';
  /** Rows reads fetched lately; every change below reaches them too. */
  readonly rows = new MemoryRowCache();

  /** Empty, or holding a persisted index's metas (in store order), made into objects as they are used. */
  constructor(loaded: SnapshotMetas | null = null) {
    this.metas = new MetaTable(loaded);
    this.order = loaded === null ? [] : loaded.ids.slice();
    this.position = loaded === null ? new SortedKeyIndex() : new SortedKeyIndex(loaded.ids, loaded.idOrder);
  }

  /**
   * A state holding `metas` (in store order) and a finished lexical index, as a persisted index
   * restores it. Only the pinned and tagged rows are made into metas now, for the sets that index them.
   */
  static restore(metas: SnapshotMetas, lexical: LexicalIndex): UserMemoryState {
    const state = new UserMemoryState(metas);
    // From the columns: making these rows' metas now was a fifth of a load (20,000 of 100,000 rows are pinned or tagged in the benchmark).
    for (const row of metas.pinnedOrTaggedRows) state.indexIds(metas.ids[row], metas.pinned(row), metas.tags(row));
    state.lexical = lexical;
    state.origin = 'persisted';
    return state;
  }

  /** Every meta in store order (the order neighbour lookups walk): what a persisted index saves. */
  orderedMetas(): MemoryMeta[] {
    return this.order.flatMap((id) => this.metas.get(id) ?? []);
  }

  /**
   * The metas in store order as they are now, read later while they go on changing (a persisted
   * index's save, in slices): until `release`, the first change of a meta keeps a copy of it as it
   * was (or that it was absent). Metas stored after this call are not part of it.
   */
  freezeMetas(): FrozenMetas {
    const frozen = new FrozenMetas(this.order, this.metas, () => this.freezes.delete(frozen));
    this.freezes.add(frozen);
    return frozen;
  }

  /** Before `memoryId`'s meta changes: every frozen view that has not kept it yet keeps it as it is. */
  private beforeChange(memoryId: string, meta: MemoryMeta | undefined): void {
    for (const frozen of this.freezes) frozen.keep(memoryId, meta);
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
    let meta = this.metas.get(memory.memory_id);
    if (meta === undefined && this.loading !== null) return;
    this.beforeChange(memory.memory_id, meta);
    if (meta === undefined) {
      meta = next;
      this.metas.set(memory.memory_id, meta);
      this.append(memory.memory_id);
    } else {
      this.unindex(meta);
      Object.assign(meta, next);
    }
    this.index(meta);
    const live = !meta.deleted;
    const lexicalIndexes = [this.lexical, this.lexicalBuilding?.index].filter((index) => index != null);
    if (lexicalIndexes.length > 0) {
      const document = live ? (analyzed ?? analyzeDocument(memory)) : null;
      for (const index of lexicalIndexes) {
        if (document !== null) index.upsert(memory.memory_id, document);
        else index.remove(memory.memory_id);
      }
    }
    const vectorTargets: [BinaryVectorIndex<MemoryMeta>, string | undefined][] = [
      ...[...this.vectorIndexes].map(([key, index]): [BinaryVectorIndex<MemoryMeta>, string | undefined] => [
        index,
        this.vectorModels.get(key),
      ]),
      ...[...this.vectorBuilding.values()].map((build): [BinaryVectorIndex<MemoryMeta>, string | undefined] => [
        build.index,
        build.model,
      ]),
    ];
    for (const [index, model] of vectorTargets) {
      const matches = live && embedding !== null && embedding.model === model && embedding.vector.length === index.dims;
      if (matches) index.upsert(memory.memory_id, embedding.vector, meta);
      else index.remove(memory.memory_id);
    }
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
    this.append(source.memory_id);
  }

  /**
   * The metas a listing must look at: the pinned or tagged subset when the filter requires it,
   * else every meta. The caller still applies the whole filter to each.
   */
  candidatesFor(filter: { pinned?: boolean; tags?: readonly string[] }): Iterable<MemoryMeta> {
    const ids =
      filter.pinned === true ? this.pinned : filter.tags && filter.tags.length > 0 ? this.taggedAny(filter.tags) : null;
    if (ids === null) return this.metas.values();
    return [...ids].flatMap((id) => this.metas.get(id) ?? []);
  }

  private taggedAny(tags: readonly string[]): Set<string> {
    const ids = new Set<string>();
    for (const tag of tags) for (const id of this.byTag.get(tag) ?? []) ids.add(id);
    return ids;
  }

  private index(meta: MemoryMeta): void {
    this.indexIds(meta.memory_id, meta.pinned, meta.tags);
  }

  private indexIds(memoryId: string, pinned: boolean, tags: readonly string[]): void {
    if (pinned) this.pinned.add(memoryId);
    for (const tag of tags) {
      let ids = this.byTag.get(tag);
      if (ids === undefined) this.byTag.set(tag, (ids = new Set()));
      ids.add(memoryId);
    }
  }

  private unindex(meta: MemoryMeta): void {
    this.pinned.delete(meta.memory_id);
    for (const tag of meta.tags) this.byTag.get(tag)?.delete(meta.memory_id);
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
    const at = this.position.get(memoryId);
    const anchor = this.metas.get(memoryId);
    if (at === undefined || anchor === undefined) return null;
    const walk = (step: -1 | 1): string[] => {
      const found: string[] = [];
      let previous = anchor;
      for (let index = at + step; index >= 0 && index < this.order.length && found.length < radius; index += step) {
        const meta = this.metas.get(this.order[index]);
        if (meta === undefined || meta.deleted) continue;
        if (meta.source_session !== previous.source_session || Math.abs(meta.time_ms - previous.time_ms) > maxGapMs)
          break;
        previous = meta;
        if (accept(meta)) found.push(meta.memory_id);
      }
      return found;
    };
    return { before: walk(-1), after: walk(1) };
  }

  private append(memoryId: string): void {
    if (this.position.has(memoryId)) return;
    this.position.set(memoryId, this.order.length);
    this.order.push(memoryId);
  }

  /** Access bumps change sort keys only; the search indexes are untouched. */
  touch(memoryId: string, accessCount: number, lastAccessed: string): void {
    this.rows.touch(memoryId, accessCount, lastAccessed);
    const meta = this.metas.get(memoryId);
    if (meta === undefined) return;
    this.revision++;
    this.beforeChange(memoryId, meta);
    meta.access_count = accessCount;
    meta.last_accessed_ms = Date.parse(lastAccessed);
  }

  forget(memoryId: string): void {
    this.rows.drop(memoryId);
    this.revision++;
    const meta = this.metas.get(memoryId);
    this.beforeChange(memoryId, meta);
    if (meta !== undefined) this.unindex(meta);
    this.metas.delete(memoryId);
    this.lexical?.remove(memoryId);
    this.lexicalBuilding?.index.remove(memoryId);
    for (const index of this.vectorIndexes.values()) index.remove(memoryId);
    for (const build of this.vectorBuilding.values()) build.index.remove(memoryId);
  }

  /** The finished vector indexes with the model each was built for. */
  vectorIndexList(): Array<{ model: string; index: BinaryVectorIndex<MemoryMeta> }> {
    return [...this.vectorIndexes].flatMap(([key, index]) => {
      const model = this.vectorModels.get(key);
      return model === undefined ? [] : [{ model, index }];
    });
  }

  addVectorIndex(model: string, index: BinaryVectorIndex<MemoryMeta>): void {
    this.revision++;
    const key = vectorIndexKey(model, index.dims);
    this.vectorIndexes.set(key, index);
    this.vectorModels.set(key, model);
  }
}

/** Metas in store order as they were when frozen (UserMemoryState.freezeMetas). */
export class FrozenMetas {
  /** Ids in store order; only the first `count` were there when frozen. */
  readonly #order: readonly string[];
  readonly count: number;
  readonly #live: MetaTable;
  /** Metas changed since: their copy as they were, or null when they were absent. */
  readonly #kept = new Map<string, MemoryMeta | null>();
  readonly #release: () => void;

  constructor(order: readonly string[], live: MetaTable, release: () => void) {
    this.#order = order;
    this.count = order.length;
    this.#live = live;
    this.#release = release;
  }

  /** The meta of the `row`-th id in store order as it was when frozen; undefined when it had none (forgotten). */
  at(row: number): MemoryMeta | undefined {
    const id = this.#order[row];
    const kept = this.#kept.get(id);
    if (kept !== undefined) return kept ?? undefined;
    return this.#live.get(id);
  }

  keep(memoryId: string, meta: MemoryMeta | undefined): void {
    if (!this.#kept.has(memoryId)) this.#kept.set(memoryId, meta === undefined ? null : { ...meta });
  }

  /** Stops keeping copies; `at` must not be called after. */
  release(): void {
    this.#release();
    this.#kept.clear();
  }
}
