import type { RankingFacts } from '../../core/domain/rankingFacts.ts';
import { readRankingFacts } from './rankingFactColumns.ts';
import { randomUUID } from 'node:crypto';
import type { TurnFacts } from '../../core/domain/dialogTurn.ts';
import type { ChangeOutcome, ChangeRequest, ForgetOutcome } from '../../core/domain/memoryChange.ts';
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
import type { FireboltConfig } from './fireboltConfig.ts';
import { readTermStatistics, searchLexicalSql } from './lexicalTerms.ts';
import { migrate } from './migrations.ts';
import { FireboltQueryClient } from './queryClient.ts';
import type { QueryClientOptions, TransactionScope } from './queryClient.ts';
import { readAccessLog, recordAccessRows } from './accessRecording.ts';
import { readAdjacentMemories } from './adjacentMemories.ts';
import { MEMORY_COLUMNS, columnNames, memoryFromRow } from './recordRows.ts';
import { SqlParams } from './sqlParams.ts';
import { StorageSequence } from './storageSequence.ts';
import {
  closestDuplicate,
  duplicateCandidateOf,
  type DuplicateCandidate,
  type DuplicateGuard,
  type GuardedInsert,
} from '../../core/ports/duplicateGuard.ts';
import { readUserStats } from './userStats.ts';
import { insertVector, readEmbeddings } from './embeddingRows.ts';
import { deleteMemoryRows, deleteUserRows, setForgotten } from './memoryDeletion.ts';
import { changeMemoryRow, insertMemoryRow, reindexStaleTerms } from './memoryWrites.ts';
import { checkHealth } from './storeHealth.ts';
import { readMemories, readMemoryPage, readUnembedded } from './memoryReads.ts';
import { deleteSessionRows, readSession, readSessions, readWorkingItems, writeWorkingChange } from './workingRows.ts';
import { fillTurnFacts, readTurnFacts } from './turnFactColumns.ts';
import { searchVectorSql } from './vectorSearch.ts';
import { VectorTables } from './vectorTables.ts';

/**
 * MemoryStore on Firebolt Core or Cloud. Every multi-statement write is one explicit
 * transaction that also appends to fml_changes, which is what changeToken reads; writes are
 * serialised by the client because Core admits one writer at a time.
 */
export class FireboltStore implements MemoryStore {
  readonly kind: string;
  readonly #client: FireboltQueryClient;
  readonly #vectors: VectorTables;
  readonly #sequence = new StorageSequence();
  #schemaVersion = 0;

  constructor(config: FireboltConfig, options: QueryClientOptions = {}) {
    this.kind = config.kind === 'core' ? 'firebolt-core' : 'firebolt-cloud';
    this.#client = new FireboltQueryClient(config, options);
    this.#vectors = new VectorTables(this.#client);
  }

  async open(): Promise<void> {
    await this.#client.connect();
    this.#schemaVersion = await migrate(this.#client);
    await this.#vectors.load();
    await reindexStaleTerms(this.#client, (work) => this.#write(work));
    await fillTurnFacts(this.#client, (work) => this.#write(work));
  }

  async close(): Promise<void> {
    this.#client.close();
  }

  health(): Promise<StoreHealth> {
    return checkHealth(this.#client, this.#vectors, this.kind, this.#schemaVersion);
  }

  /** One transaction plus the change-log row every committed write leaves. */
  #write<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    return this.#client.transaction(async (tx) => {
      const value = await work(tx);
      await tx.query('INSERT INTO fml_changes (change_id, changed_at) VALUES ($1::TEXT, CURRENT_TIMESTAMP)', [
        randomUUID(),
      ]);
      return value;
    });
  }

  // Sessions and working memory

  getSession(sessionId: string): Promise<SessionRecord | null> {
    return readSession(this.#client, sessionId);
  }

  async commitWorking(change: WorkingChange): Promise<void> {
    await this.#write((tx) => writeWorkingChange(tx, change));
  }

  listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]> {
    return readWorkingItems(this.#client, sessionId);
  }

  /** Both queries sent together; a session and items of one commit, as commitWorking writes them in one transaction. */
  async getSessionWithItems(sessionId: string): Promise<SessionWithItems | null> {
    const [session, items] = await Promise.all([this.getSession(sessionId), this.listWorkingItems(sessionId)]);
    return session === null ? null : { session, items };
  }

  listSessions(userId: string): Promise<SessionRecord[]> {
    return readSessions(this.#client, userId);
  }

  // Long-term memories

  async insertMemory(memory: MemoryRecord, embedding: StoredEmbedding | null): Promise<void> {
    await this.#insert(memory, embedding, undefined);
  }

  insertUnlessDuplicate(
    memory: MemoryRecord,
    embedding: StoredEmbedding | null,
    guard: DuplicateGuard,
  ): Promise<GuardedInsert> {
    return this.#insert(memory, embedding, guard);
  }

  async #insert(
    memory: MemoryRecord,
    embedding: StoredEmbedding | null,
    guard: DuplicateGuard | undefined,
  ): Promise<GuardedInsert> {
    const table = embedding ? await this.#vectors.ensure(embedding.vector.length) : null;
    const outcome = await this.#write(async (tx): Promise<GuardedInsert> => {
      // Firebolt runs one write transaction at a time: the search run again here sees every
      // memory committed before this insert, and none can commit until it ends.
      const duplicate = guard === undefined ? null : await this.#duplicateIn(tx, guard);
      if (duplicate !== null) return { status: 'duplicate', ...duplicate };
      await insertMemoryRow(tx, memory, () => this.#sequence.next());
      if (embedding && table) await insertVector(tx, table.table, memory, embedding);
      return { status: 'inserted' };
    });
    if (table && outcome.status === 'inserted') this.#vectors.noteVectorWritten(table.dimension);
    return outcome;
  }

  /** No change log to read: the guard's own candidate search is run again inside the transaction. */
  async duplicateMark(_userId: string): Promise<string> {
    return '';
  }

  async #duplicateIn(
    tx: TransactionScope,
    guard: DuplicateGuard,
  ): Promise<{ memory: MemoryRecord; similarity: number } | null> {
    const ids = (await searchLexicalSql(tx, guard.candidates)).map((hit) => hit.memory_id);
    if (ids.length === 0) return null;
    const userId = guard.candidates.filter.user_id;
    const params = new SqlParams();
    const { rows } = await tx.query(
      `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(ids)})`,
      params.values,
    );
    const vectors = guard.wantsEmbeddings
      ? await this.#readEmbeddings(tx, userId, ids)
      : new Map<string, StoredEmbedding>();
    return closestDuplicate(guard, rows.map(memoryFromRow), vectors);
  }

  async changeMemory(request: ChangeRequest): Promise<ChangeOutcome> {
    const { embedding } = request.change;
    const table = embedding ? await this.#vectors.ensure(embedding.vector.length) : null;
    const vectorTables = embedding === undefined ? [] : await this.#vectors.existing();
    // The read, the decision and the UPDATE share one transaction, and the UPDATE only matches the
    // version that was read: a change can never land on a row it did not see.
    const outcome = await this.#write((tx) => changeMemoryRow(tx, request, vectorTables, table?.table ?? null));
    if (table && outcome.status === 'applied') this.#vectors.noteVectorWritten(table.dimension);
    return outcome;
  }

  async forgetMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome> {
    return this.#setForgotten(userId, memoryIds, at, at);
  }

  async restoreMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome> {
    return this.#setForgotten(userId, memoryIds, null, at);
  }

  /** One transaction for the whole batch: which ids change is read inside it, then one UPDATE. */
  async #setForgotten(
    userId: string,
    memoryIds: readonly string[],
    deletedAt: string | null,
    at: string,
  ): Promise<ForgetOutcome> {
    const ids = [...new Set(memoryIds)];
    if (ids.length === 0) return { changed: [], unchanged: [], missing: [] };
    return this.#write((tx) => setForgotten(tx, userId, ids, deletedAt, at));
  }

  async #exists(userId: string, memoryId: string): Promise<boolean> {
    const { rows } = await this.#client.query(
      'SELECT memory_id FROM fml_memories WHERE user_id = $1 AND memory_id = $2 LIMIT 1',
      [userId, memoryId],
    );
    return rows.length > 0;
  }

  getMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    return readMemories(this.#client, userId, memoryIds);
  }

  listMemories(query: ListQuery): Promise<ListResult> {
    return readMemoryPage(this.#client, query);
  }

  deleteSession(userId: string, sessionId: string): Promise<boolean> {
    return this.#write((tx) => deleteSessionRows(tx, userId, sessionId));
  }

  async hardDeleteMemory(userId: string, memoryId: string, reason: HardDeleteReason = 'erasure'): Promise<boolean> {
    if (!(await this.#exists(userId, memoryId))) return false;
    const vectorTables = await this.#vectors.existing();
    await this.#write((tx) => deleteMemoryRows(tx, vectorTables, userId, memoryId, reason));
    return true;
  }

  async deleteUser(userId: string): Promise<DeletionReceipt> {
    const vectorTables = await this.#vectors.existing();
    return this.#write((tx) => deleteUserRows(tx, vectorTables, userId));
  }

  // Retrieval candidates

  searchLexical(query: LexicalQuery): Promise<LexicalHit[]> {
    return searchLexicalSql(this.#client, query);
  }

  termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics> {
    return readTermStatistics(this.#client, userId, terms);
  }

  /** Two queries either way on Firebolt: sent together. */
  async searchLexicalWithStatistics(query: LexicalQuery, terms: readonly string[]): Promise<LexicalSearch> {
    const [hits, statistics] = await Promise.all([
      this.searchLexical(query),
      this.termStatistics(query.filter.user_id, terms),
    ]);
    return { hits, statistics };
  }

  searchVector(query: VectorQuery): Promise<VectorHit[]> {
    return searchVectorSql(this.#client, this.#vectors, query);
  }

  adjacentMemories(
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
    maxGapMs: number,
  ): Promise<Map<string, AdjacentMemories>> {
    return readAdjacentMemories(this.#client, filter, memoryIds, radius, maxGapMs);
  }

  /** The search, then full rows projected: on Firebolt the five candidates' rows are one query either way. */
  async duplicateCandidates(query: LexicalQuery): Promise<DuplicateCandidate[]> {
    const ids = (await this.searchLexical(query)).map((hit) => hit.memory_id);
    const byId = new Map(
      (await this.getMemories(query.filter.user_id, ids)).map((memory) => [memory.memory_id, memory]),
    );
    return ids.flatMap((id) => {
      const memory = byId.get(id);
      return memory === undefined ? [] : [duplicateCandidateOf(memory)];
    });
  }

  turnFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, TurnFacts>> {
    return readTurnFacts(this.#client, userId, memoryIds);
  }

  rankingFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, RankingFacts>> {
    return readRankingFacts(this.#client, userId, memoryIds);
  }

  getEmbeddings(userId: string, memoryIds: readonly string[]): Promise<Map<string, StoredEmbedding>> {
    return this.#readEmbeddings(this.#client, userId, memoryIds);
  }

  async #readEmbeddings(
    scope: TransactionScope,
    userId: string,
    memoryIds: readonly string[],
  ): Promise<Map<string, StoredEmbedding>> {
    return readEmbeddings(scope, memoryIds.length === 0 ? [] : await this.#vectors.existing(), userId, memoryIds);
  }

  async listUnembedded(userId: string | null, model: string, limit: number): Promise<MemoryRecord[]> {
    if (limit <= 0) return [];
    return readUnembedded(this.#client, await this.#vectors.existing(), userId, model, limit);
  }

  async recordAccess(entries: readonly AccessLogEntry[]): Promise<void> {
    await recordAccessRows(this.#client, (work) => this.#write(work), entries);
  }

  listAccessLog(userId: string, offset: number, limit: number): Promise<AccessLogEntry[]> {
    return readAccessLog(this.#client, userId, offset, limit);
  }

  async stats(userId: string): Promise<StoreUserStats> {
    return readUserStats(this.#client, await this.#vectors.existing(), userId);
  }

  async changeToken(): Promise<string> {
    const { rows } = await this.#client.query('SELECT COUNT(*) AS n, MAX(changed_at) AS latest FROM fml_changes');
    return `${String(rows[0]?.n ?? 0)}:${String(rows[0]?.latest ?? '')}`;
  }
}
