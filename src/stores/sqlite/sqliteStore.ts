import { createPrivateFile, makeDataDirPrivate } from './filePermissions.ts';
import { type Logger, stderrLogger } from '../../core/ports/logger.ts';
import { join } from 'node:path';
import { MemoryError } from '../../core/domain/errors.ts';
import type {
  AccessLogEntry,
  MemoryRecord,
  SessionRecord,
  StoredEmbedding,
  WorkingItemRecord,
} from '../../core/domain/records.ts';
import type {
  AdjacentMemories,
  DeletionReceipt,
  LexicalHit,
  LexicalQuery,
  HardDeleteReason,
  ListQuery,
  ListResult,
  MemoryFilter,
  MemoryStore,
  StoreHealth,
  StoreUserStats,
  TermStatistics,
  VectorHit,
  VectorQuery,
  WorkingChange,
} from '../../core/ports/memoryStore.ts';
import { LexicalIndex } from '../common/lexicalIndex.ts';
import { analyzeDocument } from '../../core/text/analyzer.ts';
import { applyChange, changesIndexedText } from '../../core/domain/memoryChange.ts';
import type { ChangeOutcome, ChangeRequest, ForgetOutcome } from '../../core/domain/memoryChange.ts';
import { BinaryVectorIndex } from './binaryVectorIndex.ts';
import { ChangeFeed } from './changeFeed.ts';
import { duplicateMarkOf, duplicateWrittenSince } from './duplicateCheck.ts';
import type { DuplicateGuard, GuardedInsert } from '../../core/ports/duplicateGuard.ts';
import type { ChangeEntry, ChangeLogRetention } from './changeFeed.ts';
import { inReadTransaction, openDatabase, retryWhileBusy } from './database.ts';
import { GroupCommit, type GroupCommitHooks, type WriteLane } from './groupCommit.ts';
import { compileMemoryFilter } from './memoryFilter.ts';
import type { MemoryMeta } from './memoryMeta.ts';
import { pageOfMatches } from './memoryListing.ts';
import {
  deleteMemoryRows,
  insertMemoryRow,
  iterateMetaSources,
  readEmbeddings,
  readMemories,
  iterateModelEmbeddings,
  readMetaPage,
  readModelEmbeddingPage,
  readUnembedded,
  replaceMemoryRow,
  setForgotten,
  storedEmbeddingModel,
  writeEmbedding,
} from './memoryTables.ts';
import { LATEST_SCHEMA_VERSION, runMigrations } from './migrations.ts';
import { iterateLexicalSources, readLexicalPage, saveReanalyzed, writeLexicalDocument } from './lexicalDocuments.ts';
import type { LexicalSource } from './lexicalDocuments.ts';
import { readAccessLog, readUserIds, recordAccessRows } from './accessLog.ts';
import { deleteUserRows } from './userDeletion.ts';
import { isDirectoryWritable, toMemoryError } from './sqliteErrors.ts';
import { loadNodeSqlite } from './sqliteModule.ts';
import type { Database } from './sqliteModule.ts';
import { StatementCache } from './statementCache.ts';
import { readUserStats } from './storeStats.ts';
import { UserMemoryState, vectorIndexKey } from './userMemoryState.ts';
import { searchVectorIndex } from './vectorSearch.ts';
import { WalCheckpointer } from './walCheckpointer.ts';
import { IndexSnapshotFiles } from './indexSnapshotFiles.ts';
import { PersistedIndexes, type PersistedIndexHost, type PersistedIndexOptions } from './persistedIndexes.ts';
import { ensureStoreId } from './storeIdentity.ts';
import { purgeWal } from './walPurge.ts';
import { applyWorkingChange, readSession, readSessions, readWorkingItems } from './workingTables.ts';

/** Rows per slice of a sliced index build: a few milliseconds of work between two yields. */
const INDEX_PAGE_ROWS = 1_000;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
import { WorkingItemCache } from './workingItemCache.ts';

export interface SqliteMemoryStoreOptions {
  dataDir: string;
  /** File inside dataDir; `memory.db` by default. */
  fileName?: string;
  /** How much of the cross-process change log to keep; the defaults suit every normal use. */
  changeLogRetention?: ChangeLogRetention;
  /** Where background failures are reported (default: stderr). */
  logger?: Logger;
  /** Persisted indexes beside the store (persistedIndexes.ts): on unless false. */
  persistedIndexes?: PersistedIndexOptions | false;
}

interface Connection {
  db: Database;
  sql: StatementCache;
  feed: ChangeFeed;
  checkpointer: WalCheckpointer;
}

/**
 * The embedded backend: SQLite (WAL) is the source of truth, shared safely by every process
 * that opens the same data directory; per-user lexical and vector indexes live in memory, are
 * built on first use and follow other processes' writes through the change log.
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly kind = 'sqlite';
  readonly dataDir: string;
  readonly path: string;
  private readonly retention: ChangeLogRetention | undefined;
  private readonly log: Logger;
  private connection: Connection | null = null;
  private readonly users = new Map<string, UserMemoryState>();
  private readonly workingItems = new WorkingItemCache();
  /** Commits of this process; other processes' commits move PRAGMA data_version instead. */
  private localCommits = 0;
  private readonly commits = new GroupCommit(() => this.requireConnection('commit').db, this.groupCommitHooks());
  private readonly indexFiles: IndexSnapshotFiles;
  private readonly persistedOptions: PersistedIndexOptions | false;
  private persisted: PersistedIndexes | null = null;
  private storeId = '';

  constructor(options: SqliteMemoryStoreOptions) {
    this.dataDir = options.dataDir;
    this.path = join(options.dataDir, options.fileName ?? 'memory.db');
    this.retention = options.changeLogRetention;
    this.log = options.logger ?? stderrLogger;
    this.indexFiles = new IndexSnapshotFiles(this.path);
    this.persistedOptions = options.persistedIndexes ?? {};
  }

  async open(): Promise<void> {
    if (this.connection !== null) return;
    const sqlite = loadNodeSqlite();
    let db: Database | null = null;
    try {
      makeDataDirPrivate(this.dataDir, (count, dir) =>
        this.log.warn(`made ${count} file(s) and folder(s) in ${dir} private to this user (0700 / 0600)`),
      );
      if (!isDirectoryWritable(this.dataDir)) {
        throw new MemoryError(
          'STORAGE_READ_ONLY',
          `The memory data directory ${this.dataDir} is not writable; SQLite needs to create its journal files there. Fix its permissions or choose another data directory.`,
          {
            operation: 'open',
            details: { data_dir: this.dataDir },
          },
        );
      }
      createPrivateFile(this.path);
      const opened = await retryWhileBusy(() => openDatabase(sqlite, this.path));
      db = opened;
      await retryWhileBusy(() => runMigrations(opened));
      this.storeId = await retryWhileBusy(() => ensureStoreId(opened));
      const sql = new StatementCache(opened);
      const feed = new ChangeFeed(opened, sql, this.retention);
      feed.start();
      this.connection = { db: opened, sql, feed, checkpointer: new WalCheckpointer(opened, this.path, this.log) };
      if (this.persistedOptions !== false)
        this.persisted = new PersistedIndexes(this.indexFiles, this.persistedIndexHost(), this.persistedOptions);
    } catch (error) {
      db?.close();
      throw toMemoryError(error, 'open', this.dataDir);
    }
  }

  async close(): Promise<void> {
    // Writes already queued were asked for before the close: they commit (or fail) first.
    if (this.connection !== null) await this.commits.drain();
    const persisted = this.persisted;
    this.persisted = null;
    // What changed since the last save is saved now; failing that, the next process rebuilds or catches up.
    await persisted
      ?.close()
      .catch((error: unknown) =>
        this.log.warn(
          'saving persisted indexes at close failed; the next process catches up from the change log or rebuilds',
          error,
        ),
      );
    if (this.connection !== null) await this.commits.drain();
    const connection = this.connection;
    this.connection = null;
    this.users.clear();
    this.workingItems.clear();
    await connection?.checkpointer.close();
    connection?.db.close();
  }

  async health(): Promise<StoreHealth> {
    const started = performance.now();
    if (this.connection === null)
      return { status: 'unhealthy', latency_ms: 0, detail: `SQLite store at ${this.path} is not open.` };
    try {
      const { sql } = this.connection;
      const mode = sql.get('PRAGMA journal_mode').get() as { journal_mode: string };
      const latency_ms = performance.now() - started;
      const status = mode.journal_mode === 'wal' ? 'healthy' : 'degraded';
      return {
        status,
        latency_ms,
        detail: `SQLite ${this.path} (schema ${LATEST_SCHEMA_VERSION}, journal ${mode.journal_mode})`,
      };
    } catch (error) {
      const typed = toMemoryError(error, 'health', this.dataDir);
      return { status: 'unhealthy', latency_ms: performance.now() - started, detail: typed.message };
    }
  }

  // Sessions and working memory

  async getSession(sessionId: string): Promise<SessionRecord | null> {
    return this.read('getSession', ({ sql }) => readSession(sql, sessionId));
  }

  async commitWorking(change: WorkingChange): Promise<void> {
    await this.write(
      'commitWorking',
      ({ sql }) => applyWorkingChange(sql, change),
      () => this.workingItems.apply(change),
    );
  }

  async listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]> {
    return this.read(
      'listWorkingItems',
      ({ sql }) =>
        this.workingItems.get(sessionId) ?? this.workingItems.remember(sessionId, readWorkingItems(sql, sessionId)),
    );
  }

  async listSessions(userId: string): Promise<SessionRecord[]> {
    return this.read('listSessions', ({ sql }) => readSessions(sql, userId));
  }

  // Long-term memories

  async insertMemory(memory: MemoryRecord, embedding: StoredEmbedding | null): Promise<void> {
    await this.insert(memory, embedding, undefined);
  }

  insertUnlessDuplicate(
    memory: MemoryRecord,
    embedding: StoredEmbedding | null,
    guard: DuplicateGuard,
  ): Promise<GuardedInsert> {
    return this.insert(memory, embedding, guard);
  }

  private async insert(
    memory: MemoryRecord,
    embedding: StoredEmbedding | null,
    guard: DuplicateGuard | undefined,
  ): Promise<GuardedInsert> {
    assertEmbedding(embedding);
    const row = { ...memory, embedding_model: embedding?.model ?? null };
    const analyzed = analyzeDocument(row);
    let outcome: GuardedInsert = { status: 'inserted' };
    await this.write(
      'insertMemory',
      ({ sql, feed }) => {
        const duplicate = guard === undefined ? null : duplicateWrittenSince(sql, feed, row.user_id, guard);
        if (duplicate !== null) {
          outcome = duplicate;
          return;
        }
        insertMemoryRow(sql, row);
        writeLexicalDocument(sql, row, analyzed);
        if (embedding !== null) writeEmbedding(sql, row, embedding);
        feed.append(row.user_id, row.memory_id, 'upsert');
      },
      // The committed row is exactly what was written: no need to read it back.
      () => {
        if (outcome.status === 'inserted') this.users.get(row.user_id)?.applyMemory(row, embedding);
      },
    );
    return outcome;
  }

  /** One log for every user: the mark is a seq of it, whoever wrote it. */
  async duplicateMark(_userId: string): Promise<string> {
    return duplicateMarkOf(this.requireConnection('duplicateMark').feed);
  }

  async changeMemory(request: ChangeRequest): Promise<ChangeOutcome> {
    const { embedding } = request.change;
    if (embedding !== undefined) assertEmbedding(embedding);
    const reanalyse = changesIndexedText(request.change);
    // Read, decide and write inside one BEGIN IMMEDIATE transaction: no other process or request
    // can change the row between the read and the write, so concurrent changes compose.
    return this.write(
      'changeMemory',
      ({ sql, feed }) => {
        const [current] = readMemories(sql, request.user_id, [request.memory_id]);
        const model =
          embedding === undefined ? storedEmbeddingModel(sql, request.memory_id) : (embedding?.model ?? null);
        const outcome = applyChange(current, request, model);
        if (outcome.status !== 'applied') return outcome;
        replaceMemoryRow(sql, outcome.memory);
        if (reanalyse) writeLexicalDocument(sql, outcome.memory, analyzeDocument(outcome.memory));
        if (embedding !== undefined) writeEmbedding(sql, outcome.memory, embedding);
        feed.append(request.user_id, request.memory_id, 'upsert');
        return outcome;
      },
      () => this.refreshMemories(request.user_id, [request.memory_id]),
    );
  }

  async forgetMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome> {
    return this.setForgotten('forgetMemories', userId, memoryIds, at, at);
  }

  async restoreMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome> {
    return this.setForgotten('restoreMemories', userId, memoryIds, null, at);
  }

  private async setForgotten(
    operation: string,
    userId: string,
    memoryIds: readonly string[],
    deletedAt: string | null,
    at: string,
  ): Promise<ForgetOutcome> {
    const ids = [...new Set(memoryIds)];
    if (ids.length === 0) return { changed: [], unchanged: [], missing: [] };
    return this.write(
      operation,
      ({ sql, feed }) => {
        const changed = setForgotten(sql, userId, ids, deletedAt, at);
        for (const id of changed) feed.append(userId, id, 'upsert');
        const present = new Set(readMemories(sql, userId, ids).map((memory) => memory.memory_id));
        const done = new Set(changed);
        return {
          changed,
          unchanged: ids.filter((id) => present.has(id) && !done.has(id)),
          missing: ids.filter((id) => !present.has(id)),
        };
      },
      () => this.refreshMemories(userId, ids),
    );
  }

  async getMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    return this.read('getMemories', ({ sql }) => {
      const byId = new Map(readMemories(sql, userId, memoryIds).map((m) => [m.memory_id, m]));
      return [...new Set(memoryIds)].flatMap((id) => byId.get(id) ?? []);
    });
  }

  async listMemories(query: ListQuery): Promise<ListResult> {
    // The first listing of a user (the extraction queue's scan at open, a panel) loads the metadata
    // like a first search does: from the persisted index, else in slices, never in one stretch.
    await this.loadUserInSlices(query.filter.user_id);
    return this.read('listMemories', ({ sql }) => {
      const state = this.userState(query.filter.user_id);
      const { ids, total } = pageOfMatches(state.candidatesFor(query.filter), compileMemoryFilter(query.filter), query);
      const byId = new Map(readMemories(sql, query.filter.user_id, ids).map((m) => [m.memory_id, m]));
      return { items: ids.flatMap((id) => byId.get(id) ?? []), total };
    });
  }

  async hardDeleteMemory(userId: string, memoryId: string, reason: HardDeleteReason = 'erasure'): Promise<boolean> {
    const removed = await this.write(
      'hardDeleteMemory',
      ({ sql, feed }) => {
        const removed = deleteMemoryRows(sql, userId, memoryId, reason);
        if (removed) feed.append(userId, memoryId, 'delete');
        return removed;
      },
      () => this.users.get(userId)?.forget(memoryId),
    );
    // A hard delete is an erasure: no copy of the text may stay in a persisted index or the WAL.
    if (removed) this.indexFiles.eraseUser(userId);
    if (removed) await purgeWal(this.requireConnection('hardDeleteMemory').db);
    return removed;
  }

  async deleteUser(userId: string): Promise<DeletionReceipt> {
    const receipt = await this.write(
      'deleteUser',
      ({ sql, feed }) => {
        const receipt = deleteUserRows(sql, userId);
        feed.append(userId, null, 'drop_user');
        return receipt;
      },
      () => {
        this.users.delete(userId);
        // Sessions are keyed by id, not user: the user's are somewhere among them.
        this.workingItems.clear();
      },
    );
    this.indexFiles.eraseUser(userId);
    await purgeWal(this.requireConnection('deleteUser').db);
    return receipt;
  }

  // Retrieval candidates

  async searchLexical(query: LexicalQuery): Promise<LexicalHit[]> {
    if (query.limit <= 0 || query.terms.length === 0) return [];
    await this.prepareLexicalIndex(query.filter.user_id);
    return this.read('searchLexical', ({ sql }) => {
      const state = this.userState(query.filter.user_id);
      // Only when the caches were reset during the sliced build (another process rewrote the file): build in one go.
      const index = state.lexical ?? this.buildLexicalIndex(sql, query.filter.user_id, state);
      const accept = compileMemoryFilter(query.filter);
      return index.search(query.terms, query.limit, (id) => {
        const meta = state.metas.get(id);
        return meta !== undefined && accept(meta);
      });
    });
  }

  async termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics> {
    // Recall asks for these alongside its search: both wait for the same sliced (or persisted) index
    // rather than this one building it in a single synchronous stretch.
    if (terms.length > 0) await this.prepareLexicalIndex(userId);
    return this.read('termStatistics', ({ sql }) => {
      const state = this.userState(userId);
      const index = state.lexical ?? this.buildLexicalIndex(sql, userId, state);
      return {
        documents: index.size,
        frequencies: new Map(terms.map((term) => [term, index.documentFrequency(term)])),
      };
    });
  }

  async searchVector(query: VectorQuery): Promise<VectorHit[]> {
    if (query.limit <= 0 || query.vector.length === 0) return [];
    await this.prepareVectorIndex(query.filter.user_id, query.model, query.vector.length);
    return this.read('searchVector', ({ sql }) => {
      const userId = query.filter.user_id;
      const state = this.userState(userId);
      const index =
        state.vectorIndexes.get(vectorIndexKey(query.model, query.vector.length)) ??
        this.buildVectorIndex(sql, userId, query.model, query.vector.length, state);
      return searchVectorIndex({
        index,
        model: query.model,
        query: query.vector,
        accept: compileMemoryFilter(query.filter),
        limit: query.limit,
        loadVectors: (ids) => readEmbeddings(sql, userId, ids),
      });
    });
  }

  async adjacentMemories(
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
    maxGapMs: number,
  ): Promise<Map<string, AdjacentMemories>> {
    if (radius > 0 && memoryIds.length > 0) await this.loadUserInSlices(filter.user_id);
    return this.read('adjacentMemories', () => {
      const out = new Map<string, AdjacentMemories>();
      if (radius <= 0 || memoryIds.length === 0) return out;
      const state = this.userState(filter.user_id);
      const accept = compileMemoryFilter(filter);
      for (const memoryId of new Set(memoryIds)) {
        const window = state.adjacent(memoryId, radius, maxGapMs, accept);
        if (window !== null) out.set(memoryId, window);
      }
      return out;
    });
  }

  async getEmbeddings(userId: string, memoryIds: readonly string[]): Promise<Map<string, StoredEmbedding>> {
    return this.read('getEmbeddings', ({ sql }) => readEmbeddings(sql, userId, memoryIds));
  }

  async listUnembedded(userId: string | null, model: string, limit: number): Promise<MemoryRecord[]> {
    return this.read('listUnembedded', ({ sql }) =>
      limit <= 0 ? [] : readUnembedded(sql, userId, model, Math.floor(limit)),
    );
  }

  async recordAccess(entries: readonly AccessLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const bumped = await this.write(
      'recordAccess',
      ({ sql, feed }) => {
        const touched = recordAccessRows(sql, entries);
        for (const { user_id, memory_id } of touched) feed.append(user_id, memory_id, 'touch');
        return touched;
      },
      undefined,
      'background',
    );
    this.applyTouches(bumped);
  }

  async listAccessLog(userId: string, offset: number, limit: number): Promise<AccessLogEntry[]> {
    return this.read('listAccessLog', ({ sql }) => readAccessLog(sql, userId, offset, limit));
  }

  /** Every user with anything in this store; what `fml migrate` copies. Not on the port: only a source store needs it. */
  async listUserIds(): Promise<string[]> {
    return this.read('listUserIds', ({ sql }) => readUserIds(sql));
  }

  async stats(userId: string): Promise<StoreUserStats> {
    return this.read('stats', ({ sql }) => readUserStats(sql, userId));
  }

  async changeToken(): Promise<string> {
    return this.read('changeToken', ({ feed }) => `${feed.maxSeq()}.${feed.dataVersion()}.${this.localCommits}`);
  }

  // Plumbing

  private requireConnection(operation: string): Connection {
    if (this.connection === null) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        `SQLite store at ${this.path} is not open; call open() before ${operation}.`,
        { operation },
      );
    }
    return this.connection;
  }

  /**
   * Reads see other processes' memory writes: the change log is applied first, in the same read
   * transaction as the read itself, so both see one snapshot of the file.
   */
  private async read<T>(operation: string, work: (connection: Connection) => T): Promise<T> {
    const connection = this.requireConnection(operation);
    try {
      return await retryWhileBusy(() =>
        inReadTransaction(connection.db, () => {
          this.applyOtherProcessChanges(connection);
          return work(connection);
        }),
      );
    } catch (error) {
      throw toMemoryError(error, operation, this.dataDir);
    }
  }

  /**
   * Queues a write for the next group commit (groupCommit.ts); `afterCommit` then updates this
   * process's caches. Commit and cache updates run in the same synchronous turn, so no read of
   * this process can observe the file and caches out of step.
   */
  private write<T>(
    operation: string,
    work: (connection: Connection) => T,
    afterCommit?: () => void,
    lane: WriteLane = 'request',
  ): Promise<T> {
    let connection: Connection;
    try {
      connection = this.requireConnection(operation);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.commits.write(operation, () => work(connection), afterCommit, lane);
  }

  /** How the group commit's transactions keep the change feed and caches in step with the file. */
  private groupCommitHooks(): GroupCommitHooks {
    let inStep = false;
    let appliedThrough: number | null = null;
    return {
      begin: () => {
        inStep = this.requireConnection('commit').feed.inStepWithFile();
        appliedThrough = null;
      },
      end: () => {
        // Under the write lock the newest log rows are this transaction's own.
        if (inStep) appliedThrough = this.requireConnection('commit').feed.maxSeq();
      },
      committed: () => {
        const connection = this.requireConnection('commit');
        this.localCommits++;
        connection.checkpointer.noteCommit();
        if (appliedThrough !== null) connection.feed.markApplied(appliedThrough);
      },
      // The commit stands, so the write must not be retried; caches that may have missed it are
      // dropped and rebuilt from SQLite on next use.
      afterCommitFailed: () => {
        this.users.clear();
        this.workingItems.clear();
      },
      mapError: (error, operation) => toMemoryError(error, operation, this.dataDir),
    };
  }

  private applyOtherProcessChanges({ feed }: Connection): void {
    const update = feed.catchUp();
    if (update.kind === 'current') return;
    // Working-memory writes leave no change-log rows: any commit of another process may hold one.
    this.workingItems.clear();
    if (update.kind === 'reset') {
      this.users.clear();
      return;
    }
    this.applyChanges(update.changes);
  }

  private applyChanges(changes: readonly ChangeEntry[]): void {
    const refresh = new Map<string, Set<string>>();
    const touch = new Map<string, Set<string>>();
    for (const change of changes) {
      if (!this.users.has(change.user_id)) continue;
      if (change.op === 'drop_user') {
        this.users.delete(change.user_id);
        refresh.delete(change.user_id);
        touch.delete(change.user_id);
        continue;
      }
      if (change.memory_id === null) continue;
      const target = change.op === 'touch' ? touch : refresh;
      let ids = target.get(change.user_id);
      if (ids === undefined) target.set(change.user_id, (ids = new Set()));
      ids.add(change.memory_id);
    }
    for (const [userId, ids] of refresh) this.refreshMemories(userId, [...ids]);
    for (const [userId, ids] of touch) {
      const state = this.users.get(userId);
      if (state === undefined) continue;
      for (const memory of readMemories(this.requireConnection('catchUp').sql, userId, [...ids])) {
        state.touch(memory.memory_id, memory.access_count, memory.last_accessed);
      }
    }
  }

  /** Re-reads rows (and vectors) from SQLite into a loaded user's caches; absent rows are dropped. */
  private refreshMemories(userId: string, memoryIds: readonly string[]): void {
    const state = this.users.get(userId);
    if (state === undefined) return;
    const { sql } = this.requireConnection('refresh');
    const rows = new Map(readMemories(sql, userId, memoryIds).map((m) => [m.memory_id, m]));
    const vectors = state.wantsVectors ? readEmbeddings(sql, userId, memoryIds) : new Map<string, StoredEmbedding>();
    for (const id of memoryIds) {
      const row = rows.get(id);
      if (row === undefined) state.forget(id);
      else state.applyMemory(row, vectors.get(id) ?? null);
    }
  }

  private applyTouches(
    touched: readonly { user_id: string; memory_id: string; access_count: number; last_accessed: string }[],
  ): void {
    for (const entry of touched)
      this.users.get(entry.user_id)?.touch(entry.memory_id, entry.access_count, entry.last_accessed);
  }

  /**
   * The user's metadata, loaded now if it is not. A caller that cannot wait for a sliced load in
   * progress (a write or a listing, inside its transaction) finishes it in one go.
   */
  private userState(userId: string): UserMemoryState {
    let state = this.users.get(userId);
    if (state !== undefined) {
      if (state.loading !== null)
        this.loadMetaPages(this.requireConnection('load').sql, userId, state, Number.MAX_SAFE_INTEGER);
      return state;
    }
    state = new UserMemoryState();
    for (const source of iterateMetaSources(this.requireConnection('load').sql, userId)) state.addMeta(source);
    this.users.set(userId, state);
    return state;
  }

  /** Loads a user's metadata in slices that yield (first search, warm-up); shares a load in progress. */
  private async loadUserInSlices(userId: string): Promise<UserMemoryState> {
    if (!this.users.has(userId) && this.persisted !== null) await this.persisted.restore(userId);
    let state = this.users.get(userId);
    if (state === undefined) {
      const loading = new UserMemoryState();
      const progress: { afterRow: number; done: Promise<void> | null } = { afterRow: 0, done: null };
      loading.loading = progress;
      this.users.set(userId, loading);
      const done = (async () => {
        // Stops when the load finished (here or by a caller that could not wait) or the caches were reset.
        while (loading.loading !== null && this.users.get(userId) === loading) {
          await this.read('loadUser', ({ sql }) => {
            if (loading.loading !== null) this.loadMetaPages(sql, userId, loading, 1);
          });
          await yieldToEventLoop();
        }
      })();
      // Set after the fact: a small user is loaded before the first await and `loading` is already null.
      progress.done = done;
      done.catch(() => {
        // The caller that awaits it reports the failure; a cache that may be partial is dropped.
        if (this.users.get(userId) === loading) this.users.delete(userId);
      });
      state = loading;
    }
    const pending = state.loading?.done;
    if (pending) await pending;
    return this.users.get(userId) ?? (await this.read('loadUser', () => this.userState(userId)));
  }

  /** Reads up to `pages` pages of metadata into a loading state; clears `loading` at the end of the rows. */
  private loadMetaPages(sql: StatementCache, userId: string, state: UserMemoryState, pages: number): void {
    for (let page = 0; page < pages && state.loading !== null; page++) {
      const next = readMetaPage(sql, userId, state.loading.afterRow, INDEX_PAGE_ROWS);
      for (const source of next.sources) state.addMeta(source);
      if (next.lastRow === null) state.loading = null;
      else state.loading.afterRow = next.lastRow;
    }
  }

  /**
   * Loads a user's filter metadata and builds the full-text index in slices of INDEX_PAGE_ROWS
   * rows, yielding to the event loop between them, so other requests (other windows, MCP calls)
   * are served during a 100K-memory build. Concurrent callers share one build.
   */
  async warmUp(userId: string): Promise<void> {
    await this.prepareLexicalIndex(userId);
  }

  private async prepareLexicalIndex(userId: string): Promise<void> {
    const state = await this.loadUserInSlices(userId);
    if (state.lexical !== null) return;
    let building = state.lexicalBuilding;
    if (building === null) {
      const index = new LexicalIndex();
      // Registered before the build starts: its first page runs synchronously, and for a small or
      // empty user that page is also the last, which clears the registration it must find.
      const started = { index, done: Promise.resolve() };
      state.lexicalBuilding = started;
      started.done = this.buildLexicalInSlices(userId, state, index);
      started.done.catch(() => {
        // The caller that awaits it reports the failure; the next search starts a new build.
        if (state.lexicalBuilding === started) state.lexicalBuilding = null;
      });
      building = started;
    }
    await building.done;
  }

  private async buildLexicalInSlices(userId: string, state: UserMemoryState, index: LexicalIndex): Promise<void> {
    const reanalyzed: LexicalSource[] = [];
    let after = 0;
    for (;;) {
      // Read and insert in one synchronous turn: no write can land between a page's read and its insertion.
      const last = await this.read('buildLexicalIndex', ({ sql }) => {
        const page = readLexicalPage(sql, userId, after, INDEX_PAGE_ROWS);
        for (const source of page.sources) {
          index.upsert(source.memory_id, source.analyzed);
          if (source.reanalyzed) reanalyzed.push(source);
        }
        if (page.lastRow === null) {
          state.lexical = index;
          state.lexicalBuilding = null;
        }
        return page.lastRow;
      });
      if (last === null) break;
      after = last;
      await yieldToEventLoop();
    }
    if (reanalyzed.length > 0) this.saveAnalyses(userId, reanalyzed);
    this.persisted?.builtFromRows(userId);
  }

  private async prepareVectorIndex(userId: string, model: string, dims: number): Promise<void> {
    const key = vectorIndexKey(model, dims);
    const state = await this.loadUserInSlices(userId);
    if (state.vectorIndexes.has(key)) return;
    let building = state.vectorBuilding.get(key);
    if (building === undefined) {
      const index = new BinaryVectorIndex<MemoryMeta>(dims);
      // Registered before the build starts, as the lexical build is.
      const started = { index, model, done: Promise.resolve() };
      state.vectorBuilding.set(key, started);
      started.done = this.buildVectorInSlices(userId, model, state, index);
      started.done.catch(() => {
        if (state.vectorBuilding.get(key) === started) state.vectorBuilding.delete(key);
      });
      building = started;
    }
    await building.done;
  }

  private async buildVectorInSlices(
    userId: string,
    model: string,
    state: UserMemoryState,
    index: BinaryVectorIndex<MemoryMeta>,
  ): Promise<void> {
    let after = 0;
    for (;;) {
      const last = await this.read('buildVectorIndex', ({ sql }) => {
        const page = readModelEmbeddingPage(sql, userId, model, index.dims, after, INDEX_PAGE_ROWS);
        for (const [memoryId, vector] of page.vectors) {
          const meta = state.metas.get(memoryId);
          if (meta !== undefined && !meta.deleted) index.upsert(memoryId, vector, meta);
        }
        if (page.lastRow === null) {
          state.vectorBuilding.delete(vectorIndexKey(model, index.dims));
          state.addVectorIndex(model, index);
        }
        return page.lastRow;
      });
      if (last === null) break;
      after = last;
      await yieldToEventLoop();
    }
    this.persisted?.builtFromRows(userId);
  }

  private persistedIndexHost(): PersistedIndexHost {
    return {
      users: this.users,
      storeId: () => this.storeId,
      read: (operation, work) => this.read(operation, ({ feed }) => work(feed)),
      write: (operation, work) => this.write(operation, ({ feed }) => work(feed), undefined, 'background'),
      refreshMemories: (userId, memoryIds) => this.refreshMemories(userId, memoryIds),
      log: this.log,
    };
  }

  /** Where this user's first search got its index: `persisted` (loaded from the index file), `rows` (built), or null (none yet). */
  indexOrigin(userId: string): 'persisted' | 'rows' | null {
    const state = this.users.get(userId);
    return state === undefined || state.lexical === null ? null : state.origin;
  }

  /** Where the user's vector index of `model` came from, as indexOrigin; null when there is none yet. */
  vectorIndexOrigin(userId: string, model: string, dims: number): 'persisted' | 'rows' | null {
    return this.users.get(userId)?.vectorIndexes.get(vectorIndexKey(model, dims))?.origin ?? null;
  }

  private saveAnalyses(userId: string, reanalyzed: LexicalSource[]): void {
    // Saved by a background group commit. They only spare the next process the work: if saving fails, that process analyses again.
    this.write(
      'saveAnalysis',
      ({ sql: statements }) => saveReanalyzed(statements, userId, reanalyzed),
      undefined,
      'background',
    ).catch((error: unknown) => {
      this.log.warn('saving lexical analyses failed; they will be redone when the index is next built', error);
    });
  }

  private buildLexicalIndex(sql: StatementCache, userId: string, state: UserMemoryState): LexicalIndex {
    const index = new LexicalIndex();
    const reanalyzed: LexicalSource[] = [];
    for (const source of iterateLexicalSources(sql, userId)) {
      index.upsert(source.memory_id, source.analyzed);
      if (source.reanalyzed) reanalyzed.push(source);
    }
    state.lexical = index;
    if (reanalyzed.length > 0) this.saveAnalyses(userId, reanalyzed);
    this.persisted?.builtFromRows(userId);
    return index;
  }

  private buildVectorIndex(
    sql: StatementCache,
    userId: string,
    model: string,
    dims: number,
    state: UserMemoryState,
  ): BinaryVectorIndex<MemoryMeta> {
    const index = new BinaryVectorIndex<MemoryMeta>(dims);
    for (const [memoryId, vector] of iterateModelEmbeddings(sql, userId, model, dims)) {
      const meta = state.metas.get(memoryId);
      if (meta !== undefined && !meta.deleted) index.upsert(memoryId, vector, meta);
    }
    state.addVectorIndex(model, index);
    this.persisted?.builtFromRows(userId);
    return index;
  }
}

function assertEmbedding(embedding: StoredEmbedding | null): void {
  if (embedding === null) return;
  if (!(embedding.vector instanceof Float32Array) || embedding.vector.length === 0 || embedding.model.length === 0) {
    throw new MemoryError(
      'INVALID_INPUT',
      'An embedding needs a non-empty model name and a non-empty Float32Array vector.',
      {
        details: { field: 'embedding' },
      },
    );
  }
}
