import type { MemoryRecord, SessionRecord, StoredEmbedding, WorkingItemRecord } from '../../core/domain/records.ts';
import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';

type Row = Record<string, SQLOutputValue>;

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

export function rowToMemory(row: Row): MemoryRecord {
  return {
    memory_id: row.memory_id as string,
    user_id: row.user_id as string,
    layer: row.layer as MemoryRecord['layer'],
    scope_id: row.scope_id as string,
    org_id: row.org_id as string | null,
    project_id: row.project_id as string | null,
    memory_category: row.memory_category as MemoryRecord['memory_category'],
    memory_subtype: row.memory_subtype as MemoryRecord['memory_subtype'],
    content: row.content as string,
    summary: row.summary as string | null,
    entities: JSON.parse(row.entities as string) as string[],
    tags: JSON.parse(row.tags as string) as string[],
    metadata: JSON.parse(row.metadata as string) as Record<string, unknown>,
    event_time: row.event_time as string | null,
    is_temporal: row.is_temporal === 1,
    importance: Number(row.importance),
    access_count: Number(row.access_count),
    decay_factor: Number(row.decay_factor),
    related_memories: JSON.parse(row.related_memories as string) as string[],
    supersedes: row.supersedes as string | null,
    superseded_by: row.superseded_by as string | null,
    source_session: row.source_session as string | null,
    source_type: row.source_type as MemoryRecord['source_type'],
    confidence: Number(row.confidence),
    pinned: row.pinned === 1,
    embedding_model: row.embedding_model as string | null,
    created_at: row.created_at as string,
    last_accessed: row.last_accessed as string,
    updated_at: row.updated_at as string,
    deleted_at: row.deleted_at as string | null,
    version: Number(row.version),
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
  return {
    session_id: row.session_id as string,
    user_id: row.user_id as string,
    org_id: row.org_id as string | null,
    project_id: row.project_id as string | null,
    total_tokens: Number(row.total_tokens),
    max_tokens: Number(row.max_tokens),
    eviction_policy: row.eviction_policy as SessionRecord['eviction_policy'],
    next_sequence: Number(row.next_sequence),
    created_at: row.created_at as string,
    last_activity: row.last_activity as string,
    expires_at: row.expires_at as string | null,
    config: JSON.parse(row.config as string) as Record<string, unknown>,
  };
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
  return {
    item_id: row.item_id as string,
    session_id: row.session_id as string,
    user_id: row.user_id as string,
    content_type: row.content_type as WorkingItemRecord['content_type'],
    content: row.content as string,
    token_count: Number(row.token_count),
    relevance_score: Number(row.relevance_score),
    pinned: row.pinned === 1,
    sequence_num: Number(row.sequence_num),
    created_at: row.created_at as string,
    last_accessed: row.last_accessed as string,
    metadata: JSON.parse(row.metadata as string) as Record<string, unknown>,
  };
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
  return { model: row.model as string, vector: blobToVector(row.vector as Uint8Array) };
}
