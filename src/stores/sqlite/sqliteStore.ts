import { type Logger, stderrLogger } from '../../core/ports/logger.ts';
import type { TurnFacts } from '../../core/domain/dialogTurn.ts';
import type { RankingFacts } from '../../core/domain/rankingFacts.ts';
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
  LexicalSearch,
  SessionWithItems,
  TermStatistics,
  VectorHit,
  VectorQuery,
  WorkingChange,
} from '../../core/ports/memoryStore.ts';
import { analyzeDocument } from '../../core/text/analyzer.ts';
import { applyChange, changesIndexedText } from '../../core/domain/memoryChange.ts';
import type { ChangeOutcome, ChangeRequest, ForgetOutcome } from '../../core/domain/memoryChange.ts';
import type { ChangeLogRetention } from './changeFeed.ts';
import type { WriteLane } from './groupCommit.ts';
import { duplicateMarkOf, duplicateWrittenSince } from './duplicateCheck.ts';
import type { DuplicateCandidate, DuplicateGuard, GuardedInsert } from '../../core/ports/duplicateGuard.ts';
import { compileMemoryFilter } from './memoryFilter.ts';
import { pageOfMatches } from './memoryListing.ts';
import {
  deleteMemoryRows,
  insertMemoryRow,
  readEmbeddings,
  readMemories,
  readUnembedded,
  replaceMemoryRow,
  setForgotten,
  storedEmbeddingModel,
  writeEmbedding,
} from './memoryTables.ts';
import { writeLexicalDocument } from './lexicalDocuments.ts';
import { type AccessBump, readAccessLog, readUserIds, recordAccessRows } from './accessLog.ts';
import { CandidateSearch } from './candidateSearch.ts';
import { applyOtherProcessChanges } from './otherProcessChanges.ts';
import { deleteUserRows } from './userDeletion.ts';
import { type Connection, SqliteConnection } from './sqliteConnection.ts';
import type { StatementCache } from './statementCache.ts';
import { readUserStats } from './storeStats.ts';
import { UserCaches } from './userCaches.ts';
import type { UserMemoryState } from './userMemoryState.ts';
import { UserSearchIndexes } from './userSearchIndexes.ts';
import { IndexSnapshotFiles } from './indexSnapshotFiles.ts';
import { PersistedIndexes, type PersistedIndexHost, type PersistedIndexOptions } from './persistedIndexes.ts';
import { purgeWal } from './walPurge.ts';
import { memoryRowOf, rowToMemory, rowToSession } from './rowMapping.ts';
import type { MemoryRow } from './memoryTables.ts';
import type { AnalyzedDocument } from '../../core/text/analyzer.ts';
import {
  applyWorkingChange,
  deleteSessionRows,
  readSessionRow,
  readSessions,
  readWorkingItems,
} from './workingTables.ts';
import { WorkingItemCache } from './workingItemCache.ts';
import { ForegroundActivity } from './foregroundActivity.ts';
import { storeFileOf } from './storeFile.ts';

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

/**
 * The embedded backend: SQLite (WAL) is the source of truth, shared safely by every process
 * that opens the same data directory; per-user lexical and vector indexes live in memory, are
 * built on first use and follow other processes' writes through the change log.
 *
 * This class is the store port over its parts: the connection and its transactions
 * (sqliteConnection.ts), other processes' changes (otherProcessChanges.ts), per-user state
 * (userCaches.ts) and search indexes (userSearchIndexes.ts), and the persisted index snapshots
 * (persistedIndexes.ts); the SQL of each table lives beside it (memoryTables.ts, workingTables.ts…).
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly kind = 'sqlite';
  readonly dataDir: string;
  readonly path: string;
  private readonly log: Logger;
  private readonly connection: SqliteConnection;
  private readonly caches: UserCaches;
  private readonly indexes: UserSearchIndexes;
  private readonly candidates: CandidateSearch;
  /** The per-user caches (userCaches.ts), by user id. */
  private readonly users: Map<string, UserMemoryState>;
  private readonly workingItems = new WorkingItemCache();
  private readonly indexFiles: IndexSnapshotFiles;
  private readonly persistedOptions: PersistedIndexOptions | false;
  /** When requests were last served: a persisted index's save runs in the gaps. */
  private readonly foreground = new ForegroundActivity();
  private persisted: PersistedIndexes | null = null;

  constructor(options: SqliteMemoryStoreOptions) {
    this.dataDir = options.dataDir;
    this.path = storeFileOf(options.dataDir, options.fileName);
    this.log = options.logger ?? stderrLogger;
    this.connection = new SqliteConnection({
      dataDir: this.dataDir,
      path: this.path,
      retention: options.changeLogRetention,
      log: this.log,
      caches: {
        catchUp: (connection) => applyOtherProcessChanges(connection, this.caches, this.workingItems),
        dropAll: () => {
          this.users.clear();
          this.workingItems.clear();
        },
      },
    });
    this.caches = new UserCaches(this.connection, () => this.persisted);
    this.users = this.caches.users;
    this.indexes = new UserSearchIndexes(this.connection, this.caches, () => this.persisted, this.log);
    this.candidates = new CandidateSearch(this.connection, this.caches, this.indexes);
    this.indexFiles = new IndexSnapshotFiles(this.path);
    this.persistedOptions = options.persistedIndexes ?? {};
  }

  async open(): Promise<void> {
    if (this.connection.isOpen) return;
    await this.connection.connect();
    if (this.persistedOptions !== false)
      this.persisted = new PersistedIndexes(this.indexFiles, this.persistedIndexHost(), this.persistedOptions);
  }

  async close(): Promise<void> {
    // Writes already queued were asked for before the close: they commit (or fail) first.
    await this.connection.drain();
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
    await this.connection.drain();
    this.users.clear();
    this.workingItems.clear();
    await this.connection.disconnect();
  }

  async health(): Promise<StoreHealth> {
    return this.connection.health();
  }

  // Sessions and working memory

  async getSession(sessionId: string): Promise<SessionRecord | null> {
    return this.read('getSession', ({ sql }) => {
      const row =
        this.workingItems.sessionRow(sessionId) ??
        this.workingItems.rememberSessionRow(sessionId, readSessionRow(sql, sessionId));
      return row === undefined ? null : rowToSession(row);
    });
  }

  async commitWorking(change: WorkingChange): Promise<void> {
    await this.write(
      'commitWorking',
      ({ sql }) => applyWorkingChange(sql, change),
      () => this.workingItems.apply(change),
    );
  }

  async deleteSession(userId: string, sessionId: string): Promise<boolean> {
    return this.write(
      'deleteSession',
      ({ sql }) => deleteSessionRows(sql, userId, sessionId),
      () => this.workingItems.forget(sessionId),
    );
  }

  async listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]> {
    return this.read(
      'listWorkingItems',
      ({ sql }) =>
        this.workingItems.get(sessionId) ?? this.workingItems.remember(sessionId, readWorkingItems(sql, sessionId)),
    );
  }

  async getSessionWithItems(sessionId: string): Promise<SessionWithItems | null> {
    return this.read('getSessionWithItems', ({ sql }) => {
      const row =
        this.workingItems.sessionRow(sessionId) ??
        this.workingItems.rememberSessionRow(sessionId, readSessionRow(sql, sessionId));
      if (row === undefined) return null;
      const items =
        this.workingItems.get(sessionId) ?? this.workingItems.remember(sessionId, readWorkingItems(sql, sessionId));
      return { session: rowToSession(row), items };
    });
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
        if (outcome.status !== 'inserted') return;
        const state = this.users.get(row.user_id);
        state?.applyMemory(row, embedding, analyzed);
        state?.rows.remember(memoryRowOf(row));
      },
    );
    return outcome;
  }

  /** One log for every user: the mark is a seq of it, whoever wrote it. */
  async duplicateMark(_userId: string): Promise<string> {
    return duplicateMarkOf(this.connection.require('duplicateMark').feed);
  }

  async duplicateCandidates(query: LexicalQuery): Promise<DuplicateCandidate[]> {
    return this.candidates.duplicateCandidates(query);
  }

  async changeMemory(request: ChangeRequest): Promise<ChangeOutcome> {
    const { embedding } = request.change;
    if (embedding !== undefined) assertEmbedding(embedding);
    const reanalyse = changesIndexedText(request.change);
    // Read, decide and write inside one BEGIN IMMEDIATE transaction: no other process or request
    // can change the row between the read and the write, so concurrent changes compose.
    let written: WrittenMemory | null = null;
    return this.write(
      'changeMemory',
      ({ sql, feed }) => {
        written = null;
        const [current] = readMemories(sql, request.user_id, [request.memory_id]);
        const model =
          embedding === undefined ? storedEmbeddingModel(sql, request.memory_id) : (embedding?.model ?? null);
        const outcome = applyChange(current, request, model);
        if (outcome.status !== 'applied') return outcome;
        replaceMemoryRow(sql, outcome.memory);
        const analyzed = reanalyse ? analyzeDocument(outcome.memory) : undefined;
        if (analyzed !== undefined) writeLexicalDocument(sql, outcome.memory, analyzed);
        if (embedding !== undefined) writeEmbedding(sql, outcome.memory, embedding);
        feed.append(request.user_id, request.memory_id, 'upsert');
        written = { row: memoryRowOf(outcome.memory), analyzed, embedding };
        return outcome;
      },
      () => {
        if (written === null) this.refreshMemories(request.user_id, [request.memory_id]);
        else this.applyWritten(request.user_id, written);
      },
    );
  }

  /**
   * After a change committed: the loaded user's caches take the row it wrote (as a read would
   * return it), its analysis and vector, instead of reading the row back. Only a vector the change
   * left alone is read, and only when a vector index wants it.
   */
  private applyWritten(userId: string, { row, analyzed, embedding }: WrittenMemory): void {
    const state = this.users.get(userId);
    if (state === undefined) return;
    const memory = rowToMemory(row);
    const vector =
      embedding !== undefined
        ? embedding
        : state.wantsVectors
          ? (readEmbeddings(this.connection.require('refresh').sql, userId, [memory.memory_id]).get(memory.memory_id) ??
            null)
          : null;
    state.applyMemory(memory, vector, analyzed);
    state.rows.remember(row);
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
      const byId = new Map(this.readRows(sql, userId, memoryIds).map((m) => [m.memory_id, m]));
      return [...new Set(memoryIds)].flatMap((id) => byId.get(id) ?? []);
    });
  }

  async listMemories(query: ListQuery): Promise<ListResult> {
    // The first listing of a user (the extraction queue's scan at open, a panel) loads the metadata
    // like a first search does: from the persisted index, else in slices, never in one stretch.
    await this.caches.loadInSlices(query.filter.user_id);
    return this.read('listMemories', ({ sql }) => {
      const state = this.caches.state(query.filter.user_id);
      const { ids, total } = pageOfMatches(state.candidatesFor(query.filter), compileMemoryFilter(query.filter), query);
      const byId = new Map(this.readRows(sql, query.filter.user_id, ids).map((m) => [m.memory_id, m]));
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
    if (removed) this.eraseIndexFiles(userId);
    if (removed) await purgeWal(this.connection.require('hardDeleteMemory').db);
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
    this.eraseIndexFiles(userId);
    await purgeWal(this.connection.require('deleteUser').db);
    return receipt;
  }

  // Retrieval candidates (candidateSearch.ts)

  async searchLexical(query: LexicalQuery): Promise<LexicalHit[]> {
    return this.candidates.searchLexical(query);
  }

  async termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics> {
    return this.candidates.termStatistics(userId, terms);
  }

  async searchLexicalWithStatistics(query: LexicalQuery, terms: readonly string[]): Promise<LexicalSearch> {
    return this.candidates.searchLexicalWithStatistics(query, terms);
  }

  async searchVector(query: VectorQuery): Promise<VectorHit[]> {
    return this.candidates.searchVector(query);
  }

  async adjacentMemories(
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
    maxGapMs: number,
  ): Promise<Map<string, AdjacentMemories>> {
    return this.candidates.adjacentMemories(filter, memoryIds, radius, maxGapMs);
  }

  async turnFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, TurnFacts>> {
    return this.candidates.turnFacts(userId, memoryIds);
  }

  async rankingFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, RankingFacts>> {
    return this.candidates.rankingFacts(userId, memoryIds);
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
    let bumped: AccessBump[] = [];
    await this.write(
      'recordAccess',
      ({ sql, feed }) => {
        bumped = recordAccessRows(sql, entries);
        for (const { user_id, memory_id } of bumped) feed.append(user_id, memory_id, 'touch');
      },
      // In the commit's turn, as every other write: no read sees the file bumped and the caches not.
      () => this.caches.applyTouches(bumped),
      'background',
    );
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

  /** PRAGMA data_version moves only for commits of other connections, and this store has one. */
  async foreignChangeToken(): Promise<string> {
    return this.read('foreignChangeToken', ({ feed }) => String(feed.dataVersion()));
  }

  async changeToken(): Promise<string> {
    return this.read(
      'changeToken',
      ({ feed }) => `${feed.maxSeq()}.${feed.dataVersion()}.${this.connection.localCommits}`,
    );
  }

  /**
   * Loads a user's filter metadata and builds the full-text index in slices that yield to the
   * event loop (userSearchIndexes.ts). Concurrent callers share one build.
   */
  async warmUp(userId: string): Promise<void> {
    await this.indexes.prepareLexical(userId);
  }

  /** Where this user's first search got its index: `persisted` (loaded from the index file), `rows` (built), or null (none yet). */
  indexOrigin(userId: string): 'persisted' | 'rows' | null {
    return this.caches.indexOrigin(userId);
  }

  /** Where the user's vector index of `model` came from, as indexOrigin; null when there is none yet. */
  vectorIndexOrigin(userId: string, model: string, dims: number): 'persisted' | 'rows' | null {
    return this.caches.vectorIndexOrigin(userId, model, dims);
  }

  // Plumbing

  /** A request's read: background work waits for a gap between these (foregroundActivity.ts). */
  private read<T>(operation: string, work: (connection: Connection) => T): Promise<T> {
    return this.foreground.track(this.connection.read(operation, work));
  }

  private write<T>(
    operation: string,
    work: (connection: Connection) => T,
    afterCommit?: () => void,
    lane: WriteLane = 'request',
  ): Promise<T> {
    const written = this.connection.write(operation, work, afterCommit, lane);
    return lane === 'request' ? this.foreground.track(written) : written;
  }

  /** Memory rows for a read: those a loaded user's state holds, the rest from SQLite (memoryRowCache.ts). */
  private readRows(sql: StatementCache, userId: string, memoryIds: readonly string[]): MemoryRecord[] {
    const state = this.users.get(userId);
    return state === undefined ? readMemories(sql, userId, memoryIds) : state.rows.read(sql, userId, memoryIds);
  }

  private refreshMemories(userId: string, memoryIds: readonly string[]): void {
    this.caches.refreshMemories(userId, memoryIds);
  }

  /** After an erasure of the user committed: its index files go, and a save of its index encoding now stops. */
  private eraseIndexFiles(userId: string): void {
    if (this.persisted !== null) this.persisted.erase(userId);
    else this.indexFiles.eraseUser(userId);
  }

  /** What the store lends its persisted index snapshots. */
  private persistedIndexHost(): PersistedIndexHost {
    return {
      users: this.users,
      storeId: () => this.connection.storeId,
      // Straight to the connection: the index's own reads are not requests it should wait for.
      read: (operation, work) => this.connection.read(operation, ({ feed }) => work(feed)),
      write: (operation, work) => this.write(operation, ({ feed }) => work(feed), undefined, 'background'),
      untilIdle: () => this.foreground.untilIdle(),
      refreshMemories: (userId, memoryIds) => this.refreshMemories(userId, memoryIds),
      log: this.log,
    };
  }
}

/** What a change wrote: the row, the analysis it stored (when the text changed) and the vector (when it set one). */
interface WrittenMemory {
  row: MemoryRow;
  analyzed: AnalyzedDocument | undefined;
  embedding: StoredEmbedding | null | undefined;
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
