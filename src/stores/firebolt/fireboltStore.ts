import { randomUUID } from 'node:crypto';
import { MemoryError } from '../../core/domain/errors.ts';
import { applyChange, changesIndexedText } from '../../core/domain/memoryChange.ts';
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
  TermStatistics,
  VectorHit,
  VectorQuery,
  WorkingChange,
} from '../../core/ports/memoryStore.ts';
import { ANALYZER_VERSION } from '../../core/text/analyzer.ts';
import type { FireboltConfig } from './fireboltConfig.ts';
import { readTermStatistics, searchLexicalSql, writeTerms } from './lexicalTerms.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import { migrate } from './migrations.ts';
import { FireboltQueryClient } from './queryClient.ts';
import type { QueryClientOptions, TransactionScope } from './queryClient.ts';
import { readAccessLog, recordAccessRows } from './accessRecording.ts';
import { readAdjacentMemories } from './adjacentMemories.ts';
import { lastPerKey, upsertSql } from './mergeSql.ts';
import { batchesByEncodedSize } from './requestTarget.ts';
import {
  MEMORY_COLUMNS,
  SESSION_COLUMNS,
  WORKING_ITEM_COLUMNS,
  columnNames,
  memoryFromRow,
  sessionFromRow,
  valuePlaceholders,
  workingItemFromRow,
} from './recordRows.ts';
import { sqlIdentifier, sqlLiteral } from './sqlLiteral.ts';
import { chunks } from './chunks.ts';
import { SqlParams } from './sqlParams.ts';
import { StorageSequence } from './storageSequence.ts';
import { closestDuplicate, type DuplicateGuard, type GuardedInsert } from '../../core/ports/duplicateGuard.ts';
import { readUserStats } from './userStats.ts';
import { searchVectorSql } from './vectorSearch.ts';
import { VECTOR_SEARCH_RETRY_MS, VectorTables } from './vectorTables.ts';

/** IN lists are chunked so the parameters in the query string stay small. */
const IDS_PER_QUERY = 200;
const REINDEX_BATCH = 100;
const WORKING_ITEM_KEYS = ['user_id', 'session_id', 'item_id'];

const SORT_ORDER: Record<ListQuery['sort'], string> = {
  created: 'm.created_at DESC, m.memory_id ASC',
  recency: 'm.last_accessed DESC, m.created_at DESC, m.memory_id ASC',
  importance: 'm.importance DESC, m.created_at DESC, m.memory_id ASC',
  access_count: 'm.access_count DESC, m.created_at DESC, m.memory_id ASC',
};

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
    await this.#reindexStaleTerms();
  }

  async close(): Promise<void> {
    this.#client.close();
  }

  async health(): Promise<StoreHealth> {
    const started = performance.now();
    const where =
      this.#client.config.kind === 'core' ? this.#client.config.url : `account ${this.#client.config.account}`;
    try {
      await this.#client.query('SELECT 1 AS ok');
      // A dimension without an index, or whose VECTOR_SEARCH was refused recently, is searched exactly.
      const exact = this.#vectors.all().flatMap((table) => {
        const reason = table.index === null ? table.indexError : this.#vectors.searchFailure(table.dimension);
        return table.index === null || reason !== null ? [{ dimension: table.dimension, reason: reason ?? '' }] : [];
      });
      const vectors =
        exact.length === 0
          ? 'HNSW vector search'
          : `exact vector search for dimension ${exact.map((entry) => entry.dimension).join(', ')}: ${exact[0].reason} (an index refused at search time is retried after the next insert or ${VECTOR_SEARCH_RETRY_MS / 1000} s)`;
      return {
        status: 'healthy',
        latency_ms: performance.now() - started,
        detail: `${this.kind} at ${where}, database ${this.#client.config.database}, schema v${this.#schemaVersion}, ${vectors}`,
      };
    } catch (error) {
      return {
        status: 'unhealthy',
        latency_ms: performance.now() - started,
        detail: `${this.kind} at ${where}: ${(error as Error).message}`,
      };
    }
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

  async getSession(sessionId: string): Promise<SessionRecord | null> {
    const { rows } = await this.#client.query(
      `SELECT ${columnNames(SESSION_COLUMNS)} FROM fml_sessions WHERE session_id = $1 LIMIT 1`,
      [sessionId],
    );
    return rows.length === 0 ? null : sessionFromRow(rows[0]);
  }

  async commitWorking(change: WorkingChange): Promise<void> {
    const { session } = change;
    await this.#write(async (tx) => {
      const sessionParams = new SqlParams();
      await tx.query(
        upsertSql('fml_sessions', SESSION_COLUMNS, [session], ['user_id', 'session_id'], sessionParams),
        sessionParams.values,
      );
      // Deduplicated first so a batch boundary cannot split an item's versions; batches sized by their encoded parameters.
      const items = lastPerKey(change.upsert, WORKING_ITEM_COLUMNS, WORKING_ITEM_KEYS);
      for (const batch of batchesByEncodedSize(
        items,
        (item) => WORKING_ITEM_COLUMNS.map((column) => column.encode(item)),
        50,
      )) {
        const params = new SqlParams();
        await tx.query(
          upsertSql('fml_working_items', WORKING_ITEM_COLUMNS, batch, WORKING_ITEM_KEYS, params),
          params.values,
        );
      }
      for (const batch of chunks(change.delete, IDS_PER_QUERY)) {
        const params = new SqlParams();
        await tx.query(
          `DELETE FROM fml_working_items WHERE user_id = ${params.add(session.user_id)} AND session_id = ${params.add(session.session_id)} AND item_id IN (${params.list(batch)})`,
          params.values,
        );
      }
    });
  }

  async listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]> {
    const { rows } = await this.#client.query(
      `SELECT ${columnNames(WORKING_ITEM_COLUMNS)} FROM fml_working_items WHERE session_id = $1 ORDER BY sequence_num ASC, item_id ASC`,
      [sessionId],
    );
    return rows.map(workingItemFromRow);
  }

  async listSessions(userId: string): Promise<SessionRecord[]> {
    const { rows } = await this.#client.query(
      `SELECT ${columnNames(SESSION_COLUMNS)} FROM fml_sessions WHERE user_id = $1 ORDER BY last_activity DESC, session_id ASC`,
      [userId],
    );
    return rows.map(sessionFromRow);
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
      const erased = await tx.query('SELECT memory_id FROM fml_erased_memories WHERE user_id = $1 AND memory_id = $2', [
        memory.user_id,
        memory.memory_id,
      ]);
      if (erased.rows.length > 0) {
        throw new MemoryError(
          'INVALID_INPUT',
          `Memory ${memory.memory_id} was erased; its id cannot be stored again.`,
          {
            details: { field: 'memory_id', memory_id: memory.memory_id },
          },
        );
      }
      const length = await writeTerms(tx, memory);
      const params = new SqlParams();
      await tx.query(
        `INSERT INTO fml_memories (${columnNames(MEMORY_COLUMNS)}, doc_length, analyzer_version, stored_seq)
         VALUES (${valuePlaceholders(MEMORY_COLUMNS, memory, (v) => params.add(v))}, ${params.add(length)}::DOUBLE PRECISION, ${params.add(ANALYZER_VERSION)}::INT, ${params.add(this.#sequence.next())}::BIGINT)`,
        params.values,
      );
      if (embedding && table) await this.#insertVector(tx, table.table, memory, embedding);
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
    const reanalyse = changesIndexedText(request.change);
    // The read, the decision and the UPDATE share one transaction, and the UPDATE only matches the
    // version that was read: a change can never land on a row it did not see.
    const outcome = await this.#write(async (tx) => {
      const { rows } = await tx.query(
        `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE user_id = $1 AND memory_id = $2 LIMIT 1`,
        [request.user_id, request.memory_id],
      );
      const current = rows.length > 0 ? memoryFromRow(rows[0]) : undefined;
      const model = embedding === undefined ? (current?.embedding_model ?? null) : (embedding?.model ?? null);
      const outcome = applyChange(current, request, model);
      if (outcome.status !== 'applied' || current === undefined) return outcome;
      const memory = outcome.memory;
      const params = new SqlParams();
      const assignments = MEMORY_COLUMNS.filter(
        (column) => column.name !== 'user_id' && column.name !== 'memory_id',
      ).map((column) => `${column.name} = ${params.add(column.encode(memory))}${column.cast}`);
      if (reanalyse) {
        const length = await writeTerms(tx, memory);
        assignments.push(
          `doc_length = ${params.add(length)}::DOUBLE PRECISION`,
          `analyzer_version = ${params.add(ANALYZER_VERSION)}::INT`,
        );
      }
      await tx.query(
        `UPDATE fml_memories SET ${assignments.join(', ')} WHERE user_id = ${params.add(memory.user_id)} AND memory_id = ${params.add(memory.memory_id)} AND version = ${params.add(current.version)}::BIGINT`,
        params.values,
      );
      for (const existing of vectorTables) {
        await tx.query(`DELETE FROM ${sqlIdentifier(existing.table)} WHERE user_id = $1 AND memory_id = $2`, [
          memory.user_id,
          memory.memory_id,
        ]);
      }
      if (embedding && table) await this.#insertVector(tx, table.table, memory, embedding);
      return outcome;
    });
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
    return this.#write(async (tx) => {
      const states = new Map<string, boolean>();
      for (const batch of chunks(ids, IDS_PER_QUERY)) {
        const params = new SqlParams();
        const { rows } = await tx.query(
          `SELECT memory_id, deleted_at FROM fml_memories WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
          params.values,
        );
        for (const row of rows) states.set(String(row.memory_id), row.deleted_at !== null);
      }
      const changed = ids.filter((id) => states.has(id) && states.get(id) === (deletedAt === null));
      for (const batch of chunks(changed, IDS_PER_QUERY)) {
        const params = new SqlParams();
        await tx.query(
          `UPDATE fml_memories SET deleted_at = ${params.add(deletedAt)}::TIMESTAMPTZ, updated_at = ${params.add(at)}::TIMESTAMPTZ, version = version + 1
           WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)}) AND deleted_at IS ${deletedAt === null ? 'NOT NULL' : 'NULL'}`,
          params.values,
        );
      }
      const done = new Set(changed);
      return {
        changed,
        unchanged: ids.filter((id) => states.has(id) && !done.has(id)),
        missing: ids.filter((id) => !states.has(id)),
      };
    });
  }

  /** The vector is a literal (numbers only, via sqlLiteral) to keep a 1,536-float array out of the URL. */
  async #insertVector(
    tx: TransactionScope,
    table: string,
    memory: MemoryRecord,
    embedding: StoredEmbedding,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${sqlIdentifier(table)} (user_id, memory_id, model, embedding) VALUES ($1::TEXT, $2::TEXT, $3::TEXT, ${sqlLiteral(embedding.vector)}::ARRAY(REAL))`,
      [memory.user_id, memory.memory_id, embedding.model],
    );
  }

  async #exists(userId: string, memoryId: string): Promise<boolean> {
    const { rows } = await this.#client.query(
      'SELECT memory_id FROM fml_memories WHERE user_id = $1 AND memory_id = $2 LIMIT 1',
      [userId, memoryId],
    );
    return rows.length > 0;
  }

  async getMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    const out: MemoryRecord[] = [];
    for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
      const params = new SqlParams();
      const { rows } = await this.#client.query(
        `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
        params.values,
      );
      out.push(...rows.map(memoryFromRow));
    }
    return out;
  }

  async listMemories(query: ListQuery): Promise<ListResult> {
    const params = new SqlParams();
    const where = memoryFilterSql(query.filter, params, 'm');
    const offset = Math.max(0, Math.floor(query.offset));
    const limit = Math.max(0, Math.floor(query.limit));
    const [page, count] = await Promise.all([
      limit === 0
        ? Promise.resolve({ rows: [] })
        : this.#client.query(
            `SELECT ${columnNames(MEMORY_COLUMNS, 'm.')} FROM fml_memories m WHERE ${where} ORDER BY ${SORT_ORDER[query.sort]} LIMIT ${sqlLiteral(limit)} OFFSET ${sqlLiteral(offset)}`,
            params.values,
          ),
      this.#client.query(`SELECT COUNT(*) AS total FROM fml_memories m WHERE ${where}`, params.values),
    ]);
    return { items: page.rows.map(memoryFromRow), total: Number(count.rows[0]?.total ?? 0) };
  }

  async deleteSession(userId: string, sessionId: string): Promise<boolean> {
    return this.#write(async (tx) => {
      const ids = [userId, sessionId];
      const { rows } = await tx.query(
        'SELECT COUNT(*) AS n FROM fml_sessions WHERE user_id = $1 AND session_id = $2',
        ids,
      );
      if (Number(rows[0].n) === 0) return false;
      await tx.query('DELETE FROM fml_working_items WHERE user_id = $1 AND session_id = $2', ids);
      await tx.query('DELETE FROM fml_sessions WHERE user_id = $1 AND session_id = $2', ids);
      return true;
    });
  }

  async hardDeleteMemory(userId: string, memoryId: string, reason: HardDeleteReason = 'erasure'): Promise<boolean> {
    if (!(await this.#exists(userId, memoryId))) return false;
    const vectorTables = await this.#vectors.existing();
    await this.#write(async (tx) => {
      const ids = [userId, memoryId];
      await tx.query('DELETE FROM fml_memories WHERE user_id = $1 AND memory_id = $2', ids);
      await tx.query('DELETE FROM fml_memory_terms WHERE user_id = $1 AND memory_id = $2', ids);
      await tx.query('DELETE FROM fml_access_log WHERE user_id = $1 AND memory_id = $2', ids);
      if (reason === 'erasure')
        await tx.query('INSERT INTO fml_erased_memories (user_id, memory_id) VALUES ($1::TEXT, $2::TEXT)', ids);
      for (const table of vectorTables)
        await tx.query(`DELETE FROM ${sqlIdentifier(table.table)} WHERE user_id = $1 AND memory_id = $2`, ids);
    });
    return true;
  }

  async deleteUser(userId: string): Promise<DeletionReceipt> {
    const vectorTables = await this.#vectors.existing();
    return this.#write(async (tx) => {
      const count = async (table: string): Promise<number> =>
        Number((await tx.query(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = $1`, [userId])).rows[0].n);
      const receipt: DeletionReceipt = {
        memories_deleted: await count('fml_memories'),
        sessions_deleted: await count('fml_sessions'),
        working_items_deleted: await count('fml_working_items'),
        access_log_deleted: await count('fml_access_log'),
      };
      const tables = [
        'fml_memories',
        'fml_memory_terms',
        'fml_sessions',
        'fml_working_items',
        'fml_access_log',
        'fml_erased_memories',
        ...vectorTables.map((t) => sqlIdentifier(t.table)),
      ];
      for (const table of tables) await tx.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
      return receipt;
    });
  }

  // Retrieval candidates

  searchLexical(query: LexicalQuery): Promise<LexicalHit[]> {
    return searchLexicalSql(this.#client, query);
  }

  termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics> {
    return readTermStatistics(this.#client, userId, terms);
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

  getEmbeddings(userId: string, memoryIds: readonly string[]): Promise<Map<string, StoredEmbedding>> {
    return this.#readEmbeddings(this.#client, userId, memoryIds);
  }

  async #readEmbeddings(
    scope: TransactionScope,
    userId: string,
    memoryIds: readonly string[],
  ): Promise<Map<string, StoredEmbedding>> {
    const out = new Map<string, StoredEmbedding>();
    if (memoryIds.length === 0) return out;
    for (const table of await this.#vectors.existing()) {
      for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
        const params = new SqlParams();
        const { rows } = await scope.query(
          `SELECT memory_id, model, embedding FROM ${sqlIdentifier(table.table)} WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
          params.values,
        );
        for (const row of rows)
          out.set(row.memory_id as string, {
            model: row.model as string,
            vector: Float32Array.from(row.embedding as number[]),
          });
      }
    }
    return out;
  }

  async listUnembedded(userId: string | null, model: string, limit: number): Promise<MemoryRecord[]> {
    if (limit <= 0) return [];
    const params = new SqlParams();
    const modelParam = params.add(model);
    const tables = await this.#vectors.existing();
    const vectors = tables
      .map((table) => `SELECT user_id, memory_id FROM ${sqlIdentifier(table.table)} WHERE model = ${modelParam}`)
      .join(' UNION ALL ');
    const join = vectors ? `LEFT JOIN (${vectors}) v ON v.user_id = m.user_id AND v.memory_id = m.memory_id` : '';
    const conditions = [
      'm.deleted_at IS NULL',
      ...(vectors ? ['v.memory_id IS NULL'] : []),
      ...(userId === null ? [] : [`m.user_id = ${params.add(userId)}`]),
    ];
    const { rows } = await this.#client.query(
      `SELECT ${columnNames(MEMORY_COLUMNS, 'm.')} FROM fml_memories m ${join} WHERE ${conditions.join(' AND ')} ORDER BY m.created_at ASC, m.memory_id ASC LIMIT ${sqlLiteral(Math.floor(limit))}`,
      params.values,
    );
    return rows.map(memoryFromRow);
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

  /** Memories indexed by an older analyzer get their term rows rebuilt, in batches, at open. */
  async #reindexStaleTerms(): Promise<void> {
    for (;;) {
      const { rows } = await this.#client.query(
        `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE analyzer_version <> $1 ORDER BY user_id, memory_id LIMIT ${sqlLiteral(REINDEX_BATCH)}`,
        [ANALYZER_VERSION],
      );
      if (rows.length === 0) return;
      for (const memory of rows.map(memoryFromRow)) {
        await this.#write(async (tx) => {
          const length = await writeTerms(tx, memory);
          await tx.query(
            'UPDATE fml_memories SET doc_length = $1, analyzer_version = $2 WHERE user_id = $3 AND memory_id = $4',
            [length, ANALYZER_VERSION, memory.user_id, memory.memory_id],
          );
        });
      }
    }
  }
}
