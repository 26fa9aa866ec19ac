import { conversationKey } from '../../core/domain/dialogTurn.ts';
import { declaredProject } from '../../core/domain/rankingFacts.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryRecord, SessionRecord, StoredEmbedding, WorkingItemRecord } from '../../core/domain/records.ts';
import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import {
  memoryFromRow,
  sessionFromRow,
  storedCategory,
  storedLayer,
  storedSourceType,
  storedSubtype,
  workingItemFromRow,
  type ColumnReaders,
} from '../common/recordRows.ts';
import {
  storedFlag,
  storedJsonObject,
  storedJsonTextList,
  storedNullableText,
  storedNumber,
  storedText,
} from '../common/storedValues.ts';
import type { MetaSource } from './memoryMeta.ts';

/**
 * The SQLite codecs of the persisted records: each record is written by one *ToParams and read
 * back by one rowTo*, the decoder every backend shares (common/recordRows.ts) given SQLite's
 * readers: booleans as 0 / 1, lists as JSON text.
 */

type Row = Record<string, SQLOutputValue>;

const SQLITE_READERS: ColumnReaders = { boolean: storedFlag, textList: storedJsonTextList };

export const MEMORY_COLUMNS = [
  'memory_id',
  'user_id',
  'org_id',
  'project_id',
  'memory_category',
  'memory_subtype',
  'content',
  'summary',
  'entities',
  'tags',
  'metadata',
  'event_time',
  'is_temporal',
  'importance',
  'access_count',
  'decay_factor',
  'related_memories',
  'supersedes',
  'superseded_by',
  'source_session',
  'source_type',
  'confidence',
  'pinned',
  'embedding_model',
  'created_at',
  'last_accessed',
  'updated_at',
  'deleted_at',
  'layer',
  'scope_id',
  'version',
] as const;

export const SESSION_COLUMNS = [
  'session_id',
  'user_id',
  'org_id',
  'project_id',
  'total_tokens',
  'max_tokens',
  'eviction_policy',
  'next_sequence',
  'created_at',
  'last_activity',
  'expires_at',
  'config',
] as const;

export const WORKING_ITEM_COLUMNS = [
  'item_id',
  'session_id',
  'user_id',
  'content_type',
  'content',
  'token_count',
  'relevance_score',
  'pinned',
  'sequence_num',
  'created_at',
  'last_accessed',
  'metadata',
] as const;

export function memoryToParams(memory: MemoryRecord): SQLInputValue[] {
  return [
    memory.memory_id,
    memory.user_id,
    memory.org_id,
    memory.project_id,
    memory.memory_category,
    memory.memory_subtype,
    memory.content,
    memory.summary,
    JSON.stringify(memory.entities),
    JSON.stringify(memory.tags),
    JSON.stringify(memory.metadata),
    memory.event_time,
    memory.is_temporal ? 1 : 0,
    memory.importance,
    memory.access_count,
    memory.decay_factor,
    JSON.stringify(memory.related_memories),
    memory.supersedes,
    memory.superseded_by,
    memory.source_session,
    memory.source_type,
    memory.confidence,
    memory.pinned ? 1 : 0,
    memory.embedding_model,
    memory.created_at,
    memory.last_accessed,
    memory.updated_at,
    memory.deleted_at,
    memory.layer,
    memory.scope_id,
    memory.version,
  ];
}

/** The SQLite row codec of a memory: rowToMemory reads what memoryToParams writes, each column checked. */
export function rowToMemory(row: Row): MemoryRecord {
  return memoryFromRow(row, SQLITE_READERS);
}

/** The META_FIELDS of a memory row (memoryMeta.ts), read as rowToMemory reads them, and its metadata facts (METADATA_FACTS_SQL). */
export function rowToMetaSource(row: Row): MetaSource {
  const memory_subtype = storedSubtype(row.memory_subtype, 'memory_subtype');
  const source_session = storedNullableText(row.source_session, 'source_session');
  const conversation =
    row.turn_metadata === null || row.turn_metadata === undefined
      ? null
      : conversationKey({ memory_subtype, source_session, metadata: storedJsonObject(row.turn_metadata, 'metadata') });
  return {
    derived: {
      conversation,
      question: conversation !== null && storedFlag(row.turn_asks, 'turn_asks'),
      declared_project: declaredProject({ project: storedNullableText(row.declared_project, 'declared_project') }),
      anchored: storedFlag(row.anchored, 'anchored'),
    },
    memory_id: storedText(row.memory_id, 'memory_id'),
    layer: storedLayer(row.layer, 'layer'),
    scope_id: storedText(row.scope_id, 'scope_id'),
    project_id: storedNullableText(row.project_id, 'project_id'),
    memory_category: storedCategory(row.memory_category, 'memory_category'),
    memory_subtype,
    entities: storedJsonTextList(row.entities, 'entities'),
    tags: storedJsonTextList(row.tags, 'tags'),
    event_time: storedNullableText(row.event_time, 'event_time'),
    confidence: storedNumber(row.confidence, 'confidence'),
    pinned: storedFlag(row.pinned, 'pinned'),
    source_type: storedSourceType(row.source_type, 'source_type'),
    source_session,
    deleted_at: storedNullableText(row.deleted_at, 'deleted_at'),
    superseded_by: storedNullableText(row.superseded_by, 'superseded_by'),
    importance: storedNumber(row.importance, 'importance'),
    decay_factor: storedNumber(row.decay_factor, 'decay_factor'),
    access_count: storedNumber(row.access_count, 'access_count'),
    last_accessed: storedText(row.last_accessed, 'last_accessed'),
    created_at: storedText(row.created_at, 'created_at'),
  };
}

export function sessionToParams(session: SessionRecord): SQLInputValue[] {
  return [
    session.session_id,
    session.user_id,
    session.org_id,
    session.project_id,
    session.total_tokens,
    session.max_tokens,
    session.eviction_policy,
    session.next_sequence,
    session.created_at,
    session.last_activity,
    session.expires_at,
    JSON.stringify(session.config),
  ];
}

export function rowToSession(row: Row): SessionRecord {
  return sessionFromRow(row);
}

/** A session_contexts row as SQLite returns it. */
export type SessionRow = Readonly<Row>;

/** The row `sessionToParams` writes, as a read of it returns it. */
export function sessionRowOf(session: SessionRecord): SessionRow {
  return rowOfParams(SESSION_COLUMNS, sessionToParams(session));
}

/** The row `memoryToParams` writes, as a read of it returns it. */
export function memoryRowOf(memory: MemoryRecord): Readonly<Row> {
  return rowOfParams(MEMORY_COLUMNS, memoryToParams(memory));
}

/**
 * What SQLite gives back for a row written from `params`: every value the codecs write (text,
 * null, numbers in columns of their own affinity, 0/1 flags) reads back as written, except text
 * with an unpaired surrogate, which is stored as UTF-8 with U+FFFD in its place.
 */
function rowOfParams(columns: readonly string[], params: readonly SQLInputValue[]): Readonly<Row> {
  const row: Row = {};
  for (let index = 0; index < columns.length; index++) {
    const value = params[index];
    row[columns[index]] = typeof value === 'string' ? asStoredText(value) : (value as SQLOutputValue);
  }
  return Object.freeze(row);
}

const SURROGATE = /[\uD800-\uDFFF]/;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as SQLite stores it (String.prototype.toWellFormed, which this project's TypeScript lib does not declare). */
function asStoredText(text: string): string {
  return SURROGATE.test(text) ? text.replace(UNPAIRED_SURROGATE, '\uFFFD') : text;
}

export function workingItemToParams(item: WorkingItemRecord): SQLInputValue[] {
  return [
    item.item_id,
    item.session_id,
    item.user_id,
    item.content_type,
    item.content,
    item.token_count,
    item.relevance_score,
    item.pinned ? 1 : 0,
    item.sequence_num,
    item.created_at,
    item.last_accessed,
    JSON.stringify(item.metadata),
  ];
}

export function rowToWorkingItem(row: Row): WorkingItemRecord {
  return workingItemFromRow(row, SQLITE_READERS);
}

/** Copies into a fresh, aligned buffer: SQLite hands BLOBs back as byte views at any offset. */
export function blobToVector(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer, 0, blob.byteLength / 4);
}

export function vectorToBlob(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function rowToEmbedding(row: Row): StoredEmbedding {
  return { model: storedText(row.model, 'model'), vector: storedVector(row.vector, 'vector') };
}

/** A vector BLOB, copied into an aligned Float32Array. */
export function storedVector(value: unknown, field: string): Float32Array {
  if (!(value instanceof Uint8Array))
    throw new MemoryError('PROVIDER_ERROR', `The store holds no vector BLOB in ${field}: the store is damaged.`, {
      details: { field },
    });
  return blobToVector(value);
}
