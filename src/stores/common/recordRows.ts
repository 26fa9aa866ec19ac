import { MEMORY_LAYERS } from '../../core/domain/layers.ts';
import type { MemoryRecord } from '../../core/domain/memoryRecord.ts';
import type { RankingSource } from '../../core/domain/rankingFacts.ts';
import { EVICTION_POLICIES, SOURCE_TYPES, WORKING_CONTENT_TYPES } from '../../core/domain/recordChoices.ts';
import { MEMORY_CATEGORIES, MEMORY_SUBTYPES } from '../../core/domain/taxonomy.ts';
import type { SessionRecord, WorkingItemRecord } from '../../core/domain/workingRecords.ts';
import { storedChoice, storedJsonObject, storedNullableText, storedNumber, storedText } from './storedValues.ts';

/**
 * The row decoders of the persisted records, one per record for every backend: each column is
 * read with a checked reader (storedValues.ts) against the record's one declaration
 * (core/domain/memoryRecord.ts, workingRecords.ts). Backends differ only in how they keep a
 * boolean and a list of text, so those two readers are what a backend passes in.
 */

/** A row as a driver returns it: column name to value. */
export type StoredRow = Readonly<Record<string, unknown>>;

export interface ColumnReaders {
  /** SQLite keeps booleans as 0 / 1 (storedFlag); Firebolt has BOOLEAN (storedBoolean). */
  boolean(value: unknown, field: string): boolean;
  /** SQLite keeps lists as JSON text; Firebolt has ARRAY(TEXT) (and returns an empty one as null). */
  textList(value: unknown, field: string): string[];
}

// The lists the records' schemas are built from (recordChoices.ts, layers.ts, taxonomy.ts), not the
// schemas: a store opens without loading zod.
export const storedLayer = storedChoice(MEMORY_LAYERS);
export const storedCategory = storedChoice(MEMORY_CATEGORIES);
export const storedSubtype = storedChoice(MEMORY_SUBTYPES);
export const storedSourceType = storedChoice(SOURCE_TYPES);
const storedEvictionPolicy = storedChoice(EVICTION_POLICIES);
const storedContentType = storedChoice(WORKING_CONTENT_TYPES);

export function memoryFromRow(row: StoredRow, read: ColumnReaders): MemoryRecord {
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
    entities: read.textList(row.entities, 'entities'),
    tags: read.textList(row.tags, 'tags'),
    metadata: storedJsonObject(row.metadata, 'metadata'),
    event_time: storedNullableText(row.event_time, 'event_time'),
    is_temporal: read.boolean(row.is_temporal, 'is_temporal'),
    importance: storedNumber(row.importance, 'importance'),
    access_count: storedNumber(row.access_count, 'access_count'),
    decay_factor: storedNumber(row.decay_factor, 'decay_factor'),
    related_memories: read.textList(row.related_memories, 'related_memories'),
    supersedes: storedNullableText(row.supersedes, 'supersedes'),
    superseded_by: storedNullableText(row.superseded_by, 'superseded_by'),
    source_session: storedNullableText(row.source_session, 'source_session'),
    source_type: storedSourceType(row.source_type, 'source_type'),
    confidence: storedNumber(row.confidence, 'confidence'),
    pinned: read.boolean(row.pinned, 'pinned'),
    embedding_model: storedNullableText(row.embedding_model, 'embedding_model'),
    created_at: storedText(row.created_at, 'created_at'),
    last_accessed: storedText(row.last_accessed, 'last_accessed'),
    updated_at: storedText(row.updated_at, 'updated_at'),
    deleted_at: storedNullableText(row.deleted_at, 'deleted_at'),
    version: storedNumber(row.version, 'version'),
  };
}

/** The RANKING_SOURCE_FIELDS of a memory row (rankingFacts.ts), read as memoryFromRow reads them. */
export function rankingSourceFromRow(row: StoredRow, read: ColumnReaders): RankingSource {
  return {
    memory_id: storedText(row.memory_id, 'memory_id'),
    layer: storedLayer(row.layer, 'layer'),
    project_id: storedNullableText(row.project_id, 'project_id'),
    metadata: storedJsonObject(row.metadata, 'metadata'),
    memory_category: storedCategory(row.memory_category, 'memory_category'),
    memory_subtype: storedSubtype(row.memory_subtype, 'memory_subtype'),
    entities: read.textList(row.entities, 'entities'),
    importance: storedNumber(row.importance, 'importance'),
    decay_factor: storedNumber(row.decay_factor, 'decay_factor'),
    confidence: storedNumber(row.confidence, 'confidence'),
    access_count: storedNumber(row.access_count, 'access_count'),
    pinned: read.boolean(row.pinned, 'pinned'),
    created_at: storedText(row.created_at, 'created_at'),
    last_accessed: storedText(row.last_accessed, 'last_accessed'),
    event_time: storedNullableText(row.event_time, 'event_time'),
  };
}

/** Every column of a session is a scalar or JSON text on both backends, so one decoder needs no readers. */
export function sessionFromRow(row: StoredRow): SessionRecord {
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

export function workingItemFromRow(row: StoredRow, read: Pick<ColumnReaders, 'boolean'>): WorkingItemRecord {
  return {
    item_id: storedText(row.item_id, 'item_id'),
    session_id: storedText(row.session_id, 'session_id'),
    user_id: storedText(row.user_id, 'user_id'),
    content_type: storedContentType(row.content_type, 'content_type'),
    content: storedText(row.content, 'content'),
    token_count: storedNumber(row.token_count, 'token_count'),
    relevance_score: storedNumber(row.relevance_score, 'relevance_score'),
    pinned: read.boolean(row.pinned, 'pinned'),
    sequence_num: storedNumber(row.sequence_num, 'sequence_num'),
    created_at: storedText(row.created_at, 'created_at'),
    last_accessed: storedText(row.last_accessed, 'last_accessed'),
    metadata: storedJsonObject(row.metadata, 'metadata'),
  };
}
