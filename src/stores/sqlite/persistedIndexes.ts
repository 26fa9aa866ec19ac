import type { Logger } from '../../core/ports/logger.ts';
import { DEFAULT_BM25, LexicalDocumentsError, LexicalIndex } from '../common/lexicalIndex.ts';
import { ANALYZER_VERSION } from '../../core/text/analyzer.ts';
import type { ChangeFeed } from './changeFeed.ts';
import type { IndexSnapshotFiles } from './indexSnapshotFiles.ts';
import {
  decodeSnapshot,
  encodeSnapshotSteps,
  SnapshotFormatError,
  type SnapshotStamp,
  type VectorCodes,
} from './indexSnapshotFormat.ts';
import { exportDocumentSteps, type FrozenLexicalIndex } from '../common/lexicalExport.ts';
import { runInSlices, type Steps } from '../common/steps.ts';
import { LATEST_SCHEMA_VERSION } from './migrations.ts';
import { BinaryVectorIndex } from './binaryVectorIndex.ts';
import { EXACT_SCAN_LIMIT } from './vectorSearch.ts';
import { type FrozenMetas, UserMemoryState } from './userMemoryState.ts';

/**
 * A save encodes in slices of this much main-thread time, then lets the event loop serve what
 * waits: at 100,000 memories the encoding is about a second of CPU, which in one stretch stalled
 * every request of the process.
 */
const SAVE_SLICE_MS = 4;

/** Thrown between two slices of a save when an erasure of its user committed meanwhile. */
class SaveAbandoned extends Error {
  readonly code = 'INDEX_SAVE_ABANDONED';
}

/** The steps of a save: the frozen lexical index exported, then the whole snapshot encoded. */
function* encodeFrozen(taken: {
  stamp: SnapshotStamp;
  metas: FrozenMetas;
  lexical: FrozenLexicalIndex;
  vectors: VectorCodes[];
}): Steps<Uint8Array[]> {
  const lexical = yield* exportDocumentSteps(taken.lexical);
  return yield* encodeSnapshotSteps({ stamp: taken.stamp, metas: taken.metas, lexical, vectors: taken.vectors });
}

/** What the store lends the persisted indexes: its caches, its transactions, its catch-up. */
export interface PersistedIndexHost {
  readonly users: Map<string, UserMemoryState>;
  storeId(): string;
  /** A read transaction after this process caught up with the change log (SqliteMemoryStore.read). */
  read<T>(operation: string, work: (feed: ChangeFeed) => T): Promise<T>;
  /** A background write transaction: BEGIN IMMEDIATE, so it is ordered with every other process's commits. */
  write<T>(operation: string, work: (feed: ChangeFeed) => T): Promise<T>;
  /** Resolves in a gap between the store's requests (or after a bounded wait): where a save's slices run. */
  untilIdle(): Promise<void>;
  /** Re-reads rows into a loaded user's caches (rows gone are dropped). */
  refreshMemories(userId: string, memoryIds: readonly string[]): void;
  /** The store's logger: a rebuild is info, a damaged file or a failed save a warning. */
  log: Logger;
}

export interface PersistedIndexOptions {
  /** How often changed indexes are written again; 60 s by default. */
  saveIntervalMs?: number;
  /** Delay between an index built from rows and its first save, so the search that built it answers first. */
  saveAfterBuildMs?: number;
  /** Main-thread time a save encodes before it lets waiting requests run; 4 ms by default (0: after every step). */
  saveSliceMs?: number;
}

/**
 * Persisted indexes (issue 20): a user's filter metadata and full-text index written beside the
 * store, so the first recall of a fresh process loads them instead of reading and indexing every
 * row. A file is trusted only when its stamp matches this store (same store id, schema, analyzer,
 * BM25 parameters) and the change log still holds every change since it was made; those changes
 * (this and other processes' writes) are then re-read from the rows. Anything else (a corrupt,
 * foreign, outdated or too old file) means the index is built from rows as before, and saved anew.
 *
 * Erasure: a hard delete or forget-all removes the user's files after its commit, and a save only
 * renames its new file into place under the write lock after checking that no erasure of the user
 * committed since its content was taken. Either the erasure is seen and the file dropped, or the
 * erasure's removal comes after the rename: no file holding erased terms survives.
 */
export class PersistedIndexes {
  private readonly files: IndexSnapshotFiles;
  private readonly host: PersistedIndexHost;
  private readonly saveAfterBuildMs: number;
  private readonly saveSliceMs: number;
  private readonly restoring = new Map<string, Promise<void>>();
  private readonly saving = new Map<string, Promise<void>>();
  /** The revision of each state last written; a state whose revision moved since is saved again. */
  private readonly savedRevision = new WeakMap<UserMemoryState, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Erasures per user in this process: a save that sees the count move while it encodes stops. */
  private readonly erasures = new Map<string, number>();
  private readonly interval: NodeJS.Timeout;
  private closed = false;

  constructor(files: IndexSnapshotFiles, host: PersistedIndexHost, options: PersistedIndexOptions = {}) {
    this.files = files;
    this.host = host;
    this.saveAfterBuildMs = options.saveAfterBuildMs ?? 2_000;
    this.saveSliceMs = options.saveSliceMs ?? SAVE_SLICE_MS;
    this.interval = setInterval(() => this.saveChanged(), options.saveIntervalMs ?? 60_000);
    // A pending save never keeps a CLI or test process alive; close() saves what changed.
    this.interval.unref();
  }

  /** Loads the user's persisted index into the caches when it is valid; concurrent callers share one load. */
  restore(userId: string): Promise<void> {
    let pending = this.restoring.get(userId);
    if (pending === undefined) {
      pending = this.load(userId).finally(() => this.restoring.delete(userId));
      this.restoring.set(userId, pending);
    }
    return pending;
  }

  /** After an index was built from rows: save it once the search that built it has answered. */
  builtFromRows(userId: string): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.save(userId);
    }, this.saveAfterBuildMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** After an erasure committed (and the WAL was purged): no file of the user may keep the erased text. */
  erase(userId: string): void {
    this.erasures.set(userId, (this.erasures.get(userId) ?? 0) + 1);
    this.files.eraseUser(userId);
  }

  /** Stops the timers, waits for saves in flight and saves every index that changed since its last save. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.restoring.values(), ...this.saving.values()]);
    await Promise.all([...this.host.users.keys()].map((userId) => this.saveNow(userId)));
  }

  private saveChanged(): void {
    for (const userId of this.host.users.keys()) this.save(userId);
  }

  /** Starts a save unless one is running; failures are logged, the next save tries again. */
  private save(userId: string): void {
    if (this.saving.has(userId)) return;
    const saving = this.saveNow(userId)
      .catch((error: unknown) =>
        this.host.log.warn(`saving the persisted index of ${userId} failed; it will be retried`, error),
      )
      .finally(() => this.saving.delete(userId));
    this.saving.set(userId, saving);
  }

  private async saveNow(userId: string): Promise<void> {
    const taken = await this.host.read('saveIndex', (feed) => {
      const state = this.host.users.get(userId);
      if (state === undefined || state.loading !== null || state.lexical === null || state.lexicalBuilding !== null)
        return null;
      if (this.savedRevision.get(state) === state.revision) return null;
      // Caught up by read(): the caches hold exactly what this snapshot of the file holds, up to its newest seq.
      const stamp: SnapshotStamp = { ...this.liveStamp(userId), seq: feed.maxSeq() };
      // Vector codes only where the search uses them (above the exact-scan size); smaller indexes build from rows in moments.
      const vectors = state
        .vectorIndexList()
        .filter(({ index }) => index.size > EXACT_SCAN_LIMIT)
        .map(({ model, index }) => ({ model, dims: index.dims, ...index.exportCodes() }));
      // Frozen here, encoded below in slices while requests go on changing the state.
      return {
        state,
        revision: state.revision,
        erasures: this.erasures.get(userId) ?? 0,
        stamp,
        metas: state.freezeMetas(),
        lexical: state.lexical.freeze(),
        vectors,
      };
    });
    if (taken === null) return;
    let parts: Uint8Array[];
    try {
      parts = await runInSlices(encodeFrozen(taken), {
        // At close nothing waits for the event loop: the saves close() starts run in one go.
        sliceMs: this.closed ? Number.POSITIVE_INFINITY : this.saveSliceMs,
        pause: () => this.host.untilIdle(),
        afterPause: () => {
          // An erasure of the user since the snapshot: its file could never be published, so stop now.
          if ((this.erasures.get(userId) ?? 0) !== taken.erasures) throw new SaveAbandoned();
        },
      });
    } catch (error) {
      if (error instanceof SaveAbandoned) return;
      throw error;
    } finally {
      taken.metas.release();
    }
    const temporary = await this.files.writeTemporary(userId, parts);
    let published = false;
    try {
      published = await this.host.write('publishIndex', (feed) => {
        const since = feed.changesOfUserSince(userId, taken.stamp.seq);
        if (since === null || since.some((change) => change.op === 'delete' || change.op === 'drop_user')) return false;
        return this.files.publish(temporary, userId);
      });
    } finally {
      if (!published) this.files.discard(temporary);
    }
    if (published) this.savedRevision.set(taken.state, taken.revision);
  }

  private async load(userId: string): Promise<void> {
    const bytes = await this.files.read(userId);
    if (bytes === null) return;
    let snapshot;
    try {
      snapshot = decodeSnapshot(bytes);
    } catch (error) {
      if (!(error instanceof SnapshotFormatError)) throw error;
      this.host.log.warn(
        `the persisted index of ${userId} is not usable (${error.reason}: ${error.message}); rebuilding it from the store`,
      );
      return;
    }
    const { stamp } = snapshot;
    await this.host.read('restoreIndex', (feed) => {
      // Loaded meanwhile by a caller that could not wait (a write inside its transaction): that state stays.
      if (this.host.users.has(userId)) {
        this.host.log.info(
          `the persisted index of ${userId} was not used: the store had loaded the user meanwhile; its index is built from the store`,
        );
        return;
      }
      const mismatch = stampMismatch(stamp, { ...this.liveStamp(userId), seq: feed.maxSeq() });
      const changes = mismatch === null ? feed.changesOfUserSince(userId, stamp.seq) : null;
      if (changes === null || changes.some((change) => change.op === 'drop_user')) {
        this.host.log.info(
          `the persisted index of ${userId} is out of date (${mismatch ?? 'the change log no longer reaches back to it'}); rebuilding it from the store`,
        );
        return;
      }
      let lexical: LexicalIndex;
      try {
        lexical = LexicalIndex.fromDocuments(snapshot.lexical, stamp.bm25);
      } catch (error) {
        if (!(error instanceof LexicalDocumentsError)) throw error;
        this.host.log.warn(
          `the persisted index of ${userId} is inconsistent (${error.message}); rebuilding it from the store`,
        );
        return;
      }
      const state = UserMemoryState.restore(snapshot.metas, lexical);
      for (const vectors of snapshot.vectors) {
        try {
          const live = (id: string): number | undefined => state.liveRowOf(id);
          state.addVectorIndex(
            vectors.model,
            BinaryVectorIndex.fromCodes(vectors.dims, vectors.ids, vectors.codes, live),
          );
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          // The full-text index and metadata are sound; this model's index is built from rows when a search needs it.
          this.host.log.warn(
            `the persisted vector index of ${userId} (${vectors.model}) is inconsistent (${error.message}); it will be built from the store`,
          );
        }
      }
      this.host.users.set(userId, state);
      const changed = [...new Set(changes.flatMap((change) => (change.memory_id === null ? [] : [change.memory_id])))];
      if (changed.length > 0) this.host.refreshMemories(userId, changed);
      // Unchanged since the file was written: nothing to save until it changes.
      if (changed.length === 0) this.savedRevision.set(state, state.revision);
    });
  }

  private liveStamp(userId: string): Omit<SnapshotStamp, 'seq'> {
    return {
      storeId: this.host.storeId(),
      userId,
      schemaVersion: LATEST_SCHEMA_VERSION,
      analyzerVersion: ANALYZER_VERSION,
      bm25: { k1: DEFAULT_BM25.k1, b: DEFAULT_BM25.b },
    };
  }
}

/** Why a file's stamp does not fit the live store, or null when it does. */
export function stampMismatch(file: SnapshotStamp, live: SnapshotStamp): string | null {
  if (file.storeId !== live.storeId) return 'made from another database file';
  if (file.userId !== live.userId) return 'made for another user';
  if (file.schemaVersion !== live.schemaVersion)
    return `schema version ${file.schemaVersion}, the store is at ${live.schemaVersion}`;
  if (file.analyzerVersion !== live.analyzerVersion)
    return `analyzer version ${file.analyzerVersion}, this build uses ${live.analyzerVersion}`;
  if (file.bm25?.k1 !== live.bm25.k1 || file.bm25?.b !== live.bm25.b) return 'made with other BM25 parameters';
  if (!Number.isSafeInteger(file.seq) || file.seq < 0 || file.seq > live.seq)
    return `change-log position ${file.seq} is ahead of the store's ${live.seq}`;
  return null;
}
