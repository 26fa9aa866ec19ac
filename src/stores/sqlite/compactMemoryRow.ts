import type { SQLOutputValue } from 'node:sqlite';
import type { MemoryRow } from './memoryTables.ts';
import type { MEMORY_COLUMNS } from './rowMapping.ts';

/** Every column of a long_term_memories row: a column added to MEMORY_COLUMNS and not below fails the type check. */
type CompactMemoryRow = { readonly [Column in (typeof MEMORY_COLUMNS)[number]]: SQLOutputValue };

/**
 * The same row as one object literal of fixed shape. node:sqlite builds a row by adding its 31
 * columns one by one, which leaves it a dictionary: 2,342 bytes a held row against 942 for this
 * copy (2,000 rows of the load's size, heap measured after gc; the strings are the same ones).
 */
export function compactMemoryRow(row: MemoryRow): MemoryRow {
  const compact: CompactMemoryRow = {
    memory_id: row.memory_id,
    user_id: row.user_id,
    org_id: row.org_id,
    project_id: row.project_id,
    memory_category: row.memory_category,
    memory_subtype: row.memory_subtype,
    content: row.content,
    summary: row.summary,
    entities: row.entities,
    tags: row.tags,
    metadata: row.metadata,
    event_time: row.event_time,
    is_temporal: row.is_temporal,
    importance: row.importance,
    access_count: row.access_count,
    decay_factor: row.decay_factor,
    related_memories: row.related_memories,
    supersedes: row.supersedes,
    superseded_by: row.superseded_by,
    source_session: row.source_session,
    source_type: row.source_type,
    confidence: row.confidence,
    pinned: row.pinned,
    embedding_model: row.embedding_model,
    created_at: row.created_at,
    last_accessed: row.last_accessed,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    layer: row.layer,
    scope_id: row.scope_id,
    version: row.version,
  };
  return Object.freeze(compact);
}
