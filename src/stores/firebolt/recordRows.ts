import type { AccessLogEntry, MemoryRecord, SessionRecord, WorkingItemRecord } from '../../core/domain/records.ts';
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

const asNumber = (value: FireboltValue): number => Number(value);
const asText = (value: FireboltValue): string => value as string;
const asNullableText = (value: FireboltValue): string | null => (value === null ? null : (value as string));
const asList = (value: FireboltValue): string[] => (value as string[]) ?? [];
const asJson = (value: FireboltValue): Record<string, unknown> =>
  JSON.parse(value as string) as Record<string, unknown>;

export function memoryFromRow(row: Row): MemoryRecord {
  return {
    memory_id: asText(row.memory_id),
    user_id: asText(row.user_id),
    layer: asText(row.layer) as MemoryRecord['layer'],
    scope_id: asText(row.scope_id),
    org_id: asNullableText(row.org_id),
    project_id: asNullableText(row.project_id),
    memory_category: asText(row.memory_category) as MemoryRecord['memory_category'],
    memory_subtype: asText(row.memory_subtype) as MemoryRecord['memory_subtype'],
    content: asText(row.content),
    summary: asNullableText(row.summary),
    entities: asList(row.entities),
    tags: asList(row.tags),
    metadata: asJson(row.metadata),
    event_time: asNullableText(row.event_time),
    is_temporal: row.is_temporal === true,
    importance: asNumber(row.importance),
    access_count: asNumber(row.access_count),
    decay_factor: asNumber(row.decay_factor),
    related_memories: asList(row.related_memories),
    supersedes: asNullableText(row.supersedes),
    superseded_by: asNullableText(row.superseded_by),
    source_session: asNullableText(row.source_session),
    source_type: asText(row.source_type) as MemoryRecord['source_type'],
    confidence: asNumber(row.confidence),
    pinned: row.pinned === true,
    embedding_model: asNullableText(row.embedding_model),
    created_at: asText(row.created_at),
    last_accessed: asText(row.last_accessed),
    updated_at: asText(row.updated_at),
    deleted_at: asNullableText(row.deleted_at),
    version: asNumber(row.version),
  };
}

export function sessionFromRow(row: Row): SessionRecord {
  return {
    session_id: asText(row.session_id),
    user_id: asText(row.user_id),
    org_id: asNullableText(row.org_id),
    project_id: asNullableText(row.project_id),
    total_tokens: asNumber(row.total_tokens),
    max_tokens: asNumber(row.max_tokens),
    eviction_policy: asText(row.eviction_policy) as SessionRecord['eviction_policy'],
    next_sequence: asNumber(row.next_sequence),
    created_at: asText(row.created_at),
    last_activity: asText(row.last_activity),
    expires_at: asNullableText(row.expires_at),
    config: asJson(row.config),
  };
}

export function workingItemFromRow(row: Row): WorkingItemRecord {
  return {
    item_id: asText(row.item_id),
    session_id: asText(row.session_id),
    user_id: asText(row.user_id),
    content_type: asText(row.content_type) as WorkingItemRecord['content_type'],
    content: asText(row.content),
    token_count: asNumber(row.token_count),
    relevance_score: asNumber(row.relevance_score),
    pinned: row.pinned === true,
    sequence_num: asNumber(row.sequence_num),
    created_at: asText(row.created_at),
    last_accessed: asText(row.last_accessed),
    metadata: asJson(row.metadata),
  };
}
