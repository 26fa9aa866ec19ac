import type { SQLOutputValue } from 'node:sqlite';
import type { HardDeleteReason } from '../../core/ports/memoryStore.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryRecord, StoredEmbedding } from '../../core/domain/records.ts';
import { duplicateFactOf, type DuplicateCandidate } from '../../core/ports/duplicateGuard.ts';
import {
  MEMORY_COLUMNS,
  memoryToParams,
  rowToEmbedding,
  rowToMemory,
  rowToMetaSource,
  storedVector,
  vectorToBlob,
} from './rowMapping.ts';
import type { StatementCache } from './statementCache.ts';
import { storedJsonObject, storedNullableText, storedText } from '../common/storedValues.ts';
import { META_FIELDS, METADATA_FACTS_SQL } from './memoryMeta.ts';
import type { MetaSource } from './memoryMeta.ts';

const COLUMN_LIST = MEMORY_COLUMNS.join(', ');
const PLACEHOLDERS = MEMORY_COLUMNS.map(() => '?').join(', ');
const UPDATE_SET = MEMORY_COLUMNS.filter((c) => c !== 'memory_id' && c !== 'user_id')
  .map((c) => `${c} = ?`)
  .join(', ');
/**
 * Bound as one JSON array, so a statement serves any number of ids. Queries pair it with
 * `+user_id`: the unary plus keeps the planner on the primary key instead of scanning the
 * whole user through the user_id index.
 */
const IDS_PARAM = '(SELECT value FROM json_each(?))';
// Built once: a statement is found by its text, and building it again cost about a µs per call.
const INSERT_MEMORY = `INSERT INTO long_term_memories (${COLUMN_LIST}) VALUES (${PLACEHOLDERS})`;
const UPDATE_MEMORY = `UPDATE long_term_memories SET ${UPDATE_SET} WHERE memory_id = ? AND user_id = ?`;
const SELECT_MEMORIES = `SELECT ${COLUMN_LIST} FROM long_term_memories WHERE memory_id IN ${IDS_PARAM} AND +user_id = ?`;
const SELECT_EMBEDDINGS = `SELECT memory_id, model, vector FROM embeddings WHERE memory_id IN ${IDS_PARAM} AND +user_id = ?`;

export function insertMemoryRow(sql: StatementCache, memory: MemoryRecord): void {
  if (sql.get('SELECT 1 FROM erased_memories WHERE memory_id = ?').get(memory.memory_id) !== undefined) {
    throw new MemoryError('INVALID_INPUT', `Memory ${memory.memory_id} was erased; its id cannot be stored again.`, {
      details: { field: 'memory_id', memory_id: memory.memory_id },
    });
  }
  sql.get(INSERT_MEMORY).run(...memoryToParams(memory));
}

/**
 * Sets or clears deleted_at of these memories where it is not already in that state, raising
 * their version; returns the ids it changed. One statement, so a batch is one write.
 */
export function setForgotten(
  sql: StatementCache,
  userId: string,
  memoryIds: readonly string[],
  deletedAt: string | null,
  at: string,
): string[] {
  const rows = sql
    .get(
      `UPDATE long_term_memories SET deleted_at = ?, updated_at = ?, version = version + 1
       WHERE memory_id IN ${IDS_PARAM} AND +user_id = ? AND deleted_at IS ${deletedAt === null ? 'NOT NULL' : 'NULL'}
       RETURNING memory_id`,
    )
    .all(deletedAt, at, JSON.stringify(memoryIds), userId);
  return rows.map((row) => storedText(row.memory_id, 'memory_id'));
}

/** Returns false when the id does not exist for this user. */
export function replaceMemoryRow(sql: StatementCache, memory: MemoryRecord): boolean {
  const [memoryId, userId, ...rest] = memoryToParams(memory);
  const result = sql.get(UPDATE_MEMORY).run(...rest, memoryId, userId);
  return Number(result.changes) > 0;
}

export function writeEmbedding(sql: StatementCache, memory: MemoryRecord, embedding: StoredEmbedding | null): void {
  if (embedding === null) {
    sql.get('DELETE FROM embeddings WHERE memory_id = ?').run(memory.memory_id);
    return;
  }
  sql
    .get(
      `INSERT INTO embeddings (memory_id, user_id, model, dims, vector) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (memory_id) DO UPDATE SET user_id = excluded.user_id, model = excluded.model, dims = excluded.dims, vector = excluded.vector`,
    )
    .run(memory.memory_id, memory.user_id, embedding.model, embedding.vector.length, vectorToBlob(embedding.vector));
}

export function storedEmbeddingModel(sql: StatementCache, memoryId: string): string | null {
  const row = sql.get('SELECT model FROM embeddings WHERE memory_id = ?').get(memoryId);
  return row === undefined ? null : storedText(row.model, 'model');
}

export function readMemories(sql: StatementCache, userId: string, memoryIds: readonly string[]): MemoryRecord[] {
  return readMemoryRows(sql, userId, memoryIds).map(rowToMemory);
}

/** A long_term_memories row as SQLite returns it (rowToMemory makes the record). */
export type MemoryRow = Readonly<Record<string, SQLOutputValue>>;

/** The rows of readMemories, unparsed (memoryRowCache.ts keeps them). */
export function readMemoryRows(sql: StatementCache, userId: string, memoryIds: readonly string[]): MemoryRow[] {
  if (memoryIds.length === 0) return [];
  return sql.get(SELECT_MEMORIES).all(JSON.stringify(memoryIds), userId);
}

/**
 * duplicateCandidateOf of each row, read without the rest of it: the fact from the metadata in
 * SQL (factIdentity: its fact's category and key, both text), and the metadata itself only when
 * it is not a JSON object, to fail as a full read of that row would.
 */
const SELECT_DUPLICATE_CANDIDATES = `SELECT memory_id, content, layer, scope_id, project_id, deleted_at, superseded_by,
  CASE WHEN json_valid(metadata) AND json_type(metadata) = 'object' THEN NULL ELSE metadata END AS damaged_metadata,
  CASE WHEN json_valid(metadata) AND json_type(metadata, '$.fact.key') = 'text' AND json_type(metadata, '$.fact.category') = 'text'
    THEN json_extract(metadata, '$.fact.category') || '/' || json_extract(metadata, '$.fact.key') END AS fact
  FROM long_term_memories WHERE memory_id IN ${IDS_PARAM} AND +user_id = ?`;

/**
 * MemoryStore.duplicateCandidates: in the order of `memoryIds` (first of repeats), absent ids left
 * out. A memory whose full row the user's state holds (memoryRowCache.ts, current inside a read) is
 * made from that row, so a store whose candidates are all held runs no statement; the rest are read.
 */
export function readDuplicateCandidates(
  sql: StatementCache,
  userId: string,
  memoryIds: readonly string[],
  held?: (memoryId: string) => MemoryRow | undefined,
): DuplicateCandidate[] {
  if (memoryIds.length === 0) return [];
  const byId = new Map<string, DuplicateCandidate>();
  const missing: string[] = [];
  for (const memoryId of memoryIds) {
    if (byId.has(memoryId)) continue;
    const row = held?.(memoryId);
    if (row === undefined) missing.push(memoryId);
    else byId.set(memoryId, duplicateCandidateOfRow(row));
  }
  if (missing.length === 0) return [...byId.values()];
  for (const row of sql.get(SELECT_DUPLICATE_CANDIDATES).all(JSON.stringify(missing), userId)) {
    if (row.damaged_metadata !== null) storedJsonObject(row.damaged_metadata, 'metadata');
    const candidate = duplicateCandidate(row, storedNullableText(row.fact, 'fact'));
    byId.set(candidate.memory_id, candidate);
  }
  return [...new Set(memoryIds)].flatMap((id) => byId.get(id) ?? []);
}

/**
 * What SELECT_DUPLICATE_CANDIDATES makes of a full row: the same columns, and the fact as
 * the duplicate rule reads it from the parsed metadata (a held row was parsed whole when it was read or
 * written, so its metadata is a JSON object).
 */
function duplicateCandidateOfRow(row: MemoryRow): DuplicateCandidate {
  return duplicateCandidate(row, duplicateFactOf(storedJsonObject(row.metadata, 'metadata')));
}

/** The candidate's columns, read alike from a statement's row and from a held one. */
function duplicateCandidate(row: Readonly<Record<string, unknown>>, fact: string | null): DuplicateCandidate {
  return {
    memory_id: storedText(row.memory_id, 'memory_id'),
    content: storedText(row.content, 'content'),
    layer: storedText(row.layer, 'layer'),
    scope_id: storedText(row.scope_id, 'scope_id'),
    project_id: storedNullableText(row.project_id, 'project_id'),
    deleted: storedNullableText(row.deleted_at, 'deleted_at') !== null,
    superseded: storedNullableText(row.superseded_by, 'superseded_by') !== null,
    fact,
  };
}

/** Every row of the user (deleted ones too), reduced to what filters and sorts read. */
export function* iterateMetaSources(sql: StatementCache, userId: string): Generator<MetaSource> {
  const rows = sql
    .get(
      `SELECT ${META_FIELDS.join(', ')}, ${METADATA_FACTS_SQL} FROM long_term_memories WHERE user_id = ? ORDER BY rowid`,
    )
    .iterate(userId);
  for (const row of rows) yield rowToMetaSource(row);
}

/** One page of `iterateMetaSources` in rowid order after `afterRow` (rowid range scan, see readLexicalPage). */
export function readMetaPage(
  sql: StatementCache,
  userId: string,
  afterRow: number,
  limit: number,
): { sources: MetaSource[]; lastRow: number | null } {
  const rows = sql
    .get(
      `SELECT rowid AS row_number, ${META_FIELDS.join(', ')}, ${METADATA_FACTS_SQL} FROM long_term_memories WHERE rowid > ? AND +user_id = ? ORDER BY rowid LIMIT ?`,
    )
    .all(afterRow, userId, limit);
  return {
    sources: rows.map(rowToMetaSource),
    lastRow: rows.length === 0 ? null : Number(rows[rows.length - 1]!.row_number),
  };
}

export function readEmbeddings(
  sql: StatementCache,
  userId: string,
  memoryIds: readonly string[],
): Map<string, StoredEmbedding> {
  const out = new Map<string, StoredEmbedding>();
  if (memoryIds.length === 0) return out;
  const rows = sql.get(SELECT_EMBEDDINGS).all(JSON.stringify(memoryIds), userId);
  for (const row of rows) out.set(storedText(row.memory_id, 'memory_id'), rowToEmbedding(row));
  return out;
}

/**
 * Live rows' vectors of one model and size, streamed: a fresh vector index is built from them
 * one row at a time, so 100K x 1536 floats never sit in memory all at once.
 */
export function* iterateModelEmbeddings(
  sql: StatementCache,
  userId: string,
  model: string,
  dims: number,
): Generator<[string, Float32Array]> {
  const rows = sql
    .get(
      `SELECT e.memory_id, e.vector FROM embeddings e JOIN long_term_memories m ON m.memory_id = e.memory_id
       WHERE e.user_id = ? AND e.model = ? AND e.dims = ? AND m.deleted_at IS NULL`,
    )
    .iterate(userId, model, dims);
  for (const row of rows) yield [storedText(row.memory_id, 'memory_id'), storedVector(row.vector, 'vector')];
}

/** One page of `iterateModelEmbeddings` in rowid order after `afterRow` (see readLexicalPage for the `+`). */
export function readModelEmbeddingPage(
  sql: StatementCache,
  userId: string,
  model: string,
  dims: number,
  afterRow: number,
  limit: number,
): { vectors: [string, Float32Array][]; lastRow: number | null } {
  const rows = sql
    .get(
      `SELECT e.rowid AS row_number, e.memory_id, e.vector FROM embeddings e JOIN long_term_memories m ON m.memory_id = e.memory_id
       WHERE e.rowid > ? AND +e.user_id = ? AND +e.model = ? AND e.dims = ? AND m.deleted_at IS NULL ORDER BY e.rowid LIMIT ?`,
    )
    .all(afterRow, userId, model, dims, limit);
  return {
    vectors: rows.map((row) => [storedText(row.memory_id, 'memory_id'), storedVector(row.vector, 'vector')]),
    lastRow: rows.length === 0 ? null : Number(rows[rows.length - 1]!.row_number),
  };
}

export function readUnembedded(
  sql: StatementCache,
  userId: string | null,
  model: string,
  limit: number,
): MemoryRecord[] {
  const columns = MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ');
  return sql
    .get(
      `SELECT ${columns} FROM long_term_memories m LEFT JOIN embeddings e ON e.memory_id = m.memory_id
       WHERE (?1 IS NULL OR m.user_id = ?1) AND m.deleted_at IS NULL AND (e.memory_id IS NULL OR e.model <> ?2)
       ORDER BY m.created_at, m.memory_id LIMIT ?3`,
    )
    .all(userId, model, limit)
    .map(rowToMemory);
}

/** Returns false when the id does not exist for this user. */
export function deleteMemoryRows(
  sql: StatementCache,
  userId: string,
  memoryId: string,
  reason: HardDeleteReason = 'erasure',
): boolean {
  const removed = sql.get('DELETE FROM long_term_memories WHERE memory_id = ? AND user_id = ?').run(memoryId, userId);
  if (Number(removed.changes) === 0) return false;
  sql.get('DELETE FROM embeddings WHERE memory_id = ?').run(memoryId);
  sql.get('DELETE FROM lexical_documents WHERE memory_id = ?').run(memoryId);
  sql.get('DELETE FROM memory_access_log WHERE memory_id = ? AND +user_id = ?').run(memoryId, userId);
  if (reason === 'erasure')
    sql.get('INSERT OR IGNORE INTO erased_memories (memory_id, user_id) VALUES (?, ?)').run(memoryId, userId);
  return true;
}
