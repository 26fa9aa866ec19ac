import type { AccessLogEntry, MemoryRecord, SessionRecord, WorkingItemRecord } from '../../core/domain/records.ts';
import { memoryRecordSchema } from '../../core/domain/memoryRecord.ts';
import { EVICTION_POLICIES } from '../../core/domain/records.ts';
import { WORKING_CONTENT_TYPES } from '../../core/domain/workingContentTypes.ts';
import {
  storedBoolean,
  storedChoice,
  storedJsonObject,
  storedNullableText,
  storedNumber,
  storedText,
  storedTextList,
} from '../common/storedValues.ts';
import type { QueryParam } from './queryParameters.ts';
import type { FireboltValue } from './resultParser.ts';

/**
 * Column lists and value encodings shared by every statement that reads or writes a record,
 * so a field cannot be written under one name and read under another.
 */
type Row = Record<string, FireboltValue>;

/**
 * How a record field is written: the SQL cast applied to its `$n` parameter. Every parameter is
 * cast because Firebolt types a `query_parameters` value from its JSON alone (1 is BIGINT, 0.5
 * DOUBLE PRECISION, null and [] have no usable type), which breaks MERGE sources and UNION ALL rows.
 */
type ColumnCast = '::TEXT' | '::BIGINT' | '::DOUBLE PRECISION' | '::BOOLEAN' | '::TIMESTAMPTZ' | '::ARRAY(TEXT)';

interface ColumnSpec<R> {
  name: string;
  cast: ColumnCast;
  encode(record: R): QueryParam;
}

const typed =
  (cast: ColumnCast) =>
  <R>(name: keyof R & string): ColumnSpec<R> => ({ name, cast, encode: (r) => r[name] as QueryParam });
const text = typed('::TEXT');
const bigint = typed('::BIGINT');
const double = typed('::DOUBLE PRECISION');
const bool = typed('::BOOLEAN');
const time = typed('::TIMESTAMPTZ');
const list = typed('::ARRAY(TEXT)');
const json = <R>(name: keyof R & string): ColumnSpec<R> => ({
  name,
  cast: '::TEXT',
  encode: (r) => JSON.stringify(r[name]),
});

export const MEMORY_COLUMNS: readonly ColumnSpec<MemoryRecord>[] = [
  text('user_id'),
  text('memory_id'),
  text('org_id'),
  text('project_id'),
  text('memory_category'),
  text('memory_subtype'),
  text('content'),
  text('summary'),
  list('entities'),
  list('tags'),
  json('metadata'),
  time('event_time'),
  bool('is_temporal'),
  double('importance'),
  bigint('access_count'),
  double('decay_factor'),
  list('related_memories'),
  text('supersedes'),
  text('superseded_by'),
  text('source_session'),
  text('source_type'),
  double('confidence'),
  bool('pinned'),
  text('embedding_model'),
  time('created_at'),
  time('last_accessed'),
  time('updated_at'),
  time('deleted_at'),
  text('layer'),
  text('scope_id'),
  bigint('version'),
];

export const SESSION_COLUMNS: readonly ColumnSpec<SessionRecord>[] = [
  text('user_id'),
  text('session_id'),
  text('org_id'),
  text('project_id'),
  bigint('total_tokens'),
  bigint('max_tokens'),
  text('eviction_policy'),
  bigint('next_sequence'),
  time('created_at'),
  time('last_activity'),
  time('expires_at'),
  json('config'),
];

export const WORKING_ITEM_COLUMNS: readonly ColumnSpec<WorkingItemRecord>[] = [
  text('user_id'),
  text('session_id'),
  text('item_id'),
  text('content_type'),
  text('content'),
  bigint('token_count'),
  double('relevance_score'),
  bool('pinned'),
  bigint('sequence_num'),
  time('created_at'),
  time('last_accessed'),
  json('metadata'),
];

export const ACCESS_LOG_COLUMNS: readonly ColumnSpec<AccessLogEntry>[] = [
  text('user_id'),
  text('memory_id'),
  text('access_id'),
  text('session_id'),
  text('query_text'),
  double('similarity_score'),
  text('tool'),
  time('accessed_at'),
];

export function columnNames<R>(columns: readonly ColumnSpec<R>[], alias = ''): string {
  return columns.map((column) => `${alias}${column.name}`).join(', ');
}

/** `$a::CAST, $b, …` for one record, registering its values with `add`. */
export function valuePlaceholders<R>(
  columns: readonly ColumnSpec<R>[],
  record: R,
  add: (value: QueryParam) => string,
): string {
  return columns.map((column) => `${add(column.encode(record))}${column.cast}`).join(', ');
}

const { shape } = memoryRecordSchema;
const storedLayer = storedChoice(shape.layer.options);
const storedCategory = storedChoice(shape.memory_category.options);
const storedSubtype = storedChoice(shape.memory_subtype.options);
const storedSourceType = storedChoice(shape.source_type.options);
const storedEvictionPolicy = storedChoice(EVICTION_POLICIES);
const storedContentType = storedChoice(WORKING_CONTENT_TYPES);

/** Firebolt returns an empty ARRAY(TEXT) as null. */
function storedList(value: FireboltValue, field: string): string[] {
  return value === null ? [] : storedTextList(value, field);
}

/** The Firebolt row codec of a memory: memoryFromRow reads what MEMORY_COLUMNS write, each column checked. */
export function memoryFromRow(row: Row): MemoryRecord {
  return {
    memory_id: storedText(row.memory_id, 'memory_id'),
    user_id: storedText(row.user_id, 'user_id'),
    layer: storedLayer(row.layer, 'layer'),
    scope_id: storedText(row.scope_id, 'scope_id'),
    org_id: storedNullableText(row.org_id, 'org_id'),
    project_id: storedNullableText(row.project_id, 'project_id'),
    memory_category: storedCategory(row.memory_category, 'memory_category'),
    memory_subtype: storedSubtype(row.memory_subtype, 'memory_subtype'),
    content: storedText(row.content, 'content'),
    summary: storedNullableText(row.summary, 'summary'),
    entities: storedList(row.entities, 'entities'),
    tags: storedList(row.tags, 'tags'),
    metadata: storedJsonObject(row.metadata, 'metadata'),
    event_time: storedNullableText(row.event_time, 'event_time'),
    is_temporal: storedBoolean(row.is_temporal, 'is_temporal'),
    importance: storedNumber(row.importance, 'importance'),
    access_count: storedNumber(row.access_count, 'access_count'),
    decay_factor: storedNumber(row.decay_factor, 'decay_factor'),
    related_memories: storedList(row.related_memories, 'related_memories'),
    supersedes: storedNullableText(row.supersedes, 'supersedes'),
    superseded_by: storedNullableText(row.superseded_by, 'superseded_by'),
    source_session: storedNullableText(row.source_session, 'source_session'),
    source_type: storedSourceType(row.source_type, 'source_type'),
    confidence: storedNumber(row.confidence, 'confidence'),
    pinned: storedBoolean(row.pinned, 'pinned'),
    embedding_model: storedNullableText(row.embedding_model, 'embedding_model'),
    created_at: storedText(row.created_at, 'created_at'),
    last_accessed: storedText(row.last_accessed, 'last_accessed'),
    updated_at: storedText(row.updated_at, 'updated_at'),
    deleted_at: storedNullableText(row.deleted_at, 'deleted_at'),
    version: storedNumber(row.version, 'version'),
  };
}

export function sessionFromRow(row: Row): SessionRecord {
  return {
    session_id: storedText(row.session_id, 'session_id'),
    user_id: storedText(row.user_id, 'user_id'),
    org_id: storedNullableText(row.org_id, 'org_id'),
    project_id: storedNullableText(row.project_id, 'project_id'),
    total_tokens: storedNumber(row.total_tokens, 'total_tokens'),
    max_tokens: storedNumber(row.max_tokens, 'max_tokens'),
    eviction_policy: storedEvictionPolicy(row.eviction_policy, 'eviction_policy'),
    next_sequence: storedNumber(row.next_sequence, 'next_sequence'),
    created_at: storedText(row.created_at, 'created_at'),
    last_activity: storedText(row.last_activity, 'last_activity'),
    expires_at: storedNullableText(row.expires_at, 'expires_at'),
    config: storedJsonObject(row.config, 'config'),
  };
}

export function workingItemFromRow(row: Row): WorkingItemRecord {
  return {
    item_id: storedText(row.item_id, 'item_id'),
    session_id: storedText(row.session_id, 'session_id'),
    user_id: storedText(row.user_id, 'user_id'),
    content_type: storedContentType(row.content_type, 'content_type'),
    content: storedText(row.content, 'content'),
    token_count: storedNumber(row.token_count, 'token_count'),
    relevance_score: storedNumber(row.relevance_score, 'relevance_score'),
    pinned: storedBoolean(row.pinned, 'pinned'),
    sequence_num: storedNumber(row.sequence_num, 'sequence_num'),
    created_at: storedText(row.created_at, 'created_at'),
    last_accessed: storedText(row.last_accessed, 'last_accessed'),
    metadata: storedJsonObject(row.metadata, 'metadata'),
  };
}
