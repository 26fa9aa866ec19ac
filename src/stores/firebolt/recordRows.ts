import type { RankingSource } from '../../core/domain/rankingFacts.ts';
import type { AccessLogEntry, MemoryRecord, SessionRecord, WorkingItemRecord } from '../../core/domain/records.ts';
import {
  memoryFromRow as decodeMemory,
  rankingSourceFromRow as decodeRankingSource,
  sessionFromRow as decodeSession,
  workingItemFromRow as decodeWorkingItem,
  type ColumnReaders,
} from '../common/recordRows.ts';
import { storedBoolean, storedTextList } from '../common/storedValues.ts';
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

/** Firebolt returns an empty ARRAY(TEXT) as null. */
function storedList(value: unknown, field: string): string[] {
  return value === null ? [] : storedTextList(value, field);
}

const FIREBOLT_READERS: ColumnReaders = { boolean: storedBoolean, textList: storedList };

/** The Firebolt row codec of a memory: memoryFromRow reads what MEMORY_COLUMNS write, each column checked. */
export function memoryFromRow(row: Row): MemoryRecord {
  return decodeMemory(row, FIREBOLT_READERS);
}

/** The Firebolt row codec of a memory's ranking source (rankingFacts.ts), read as memoryFromRow reads it. */
export function rankingSourceFromRow(row: Row): RankingSource {
  return decodeRankingSource(row, FIREBOLT_READERS);
}

export function sessionFromRow(row: Row): SessionRecord {
  return decodeSession(row);
}

export function workingItemFromRow(row: Row): WorkingItemRecord {
  return decodeWorkingItem(row, FIREBOLT_READERS);
}
