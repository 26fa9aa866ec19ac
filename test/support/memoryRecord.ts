import type { MemoryRecord } from '../../src/core/domain/records.ts';

/** A plain live semantic/project memory, every timestamp `at`, for tests of scoring and ranking. */
export function memoryRecord(at: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    memory_id: 'm',
    user_id: 'u',
    layer: 'user',
    scope_id: 'u',
    org_id: null,
    project_id: null,
    memory_category: 'semantic',
    memory_subtype: 'project',
    content: 'x',
    summary: null,
    entities: [],
    tags: [],
    metadata: {},
    event_time: null,
    is_temporal: false,
    importance: 0.5,
    access_count: 0,
    decay_factor: 1,
    related_memories: [],
    supersedes: null,
    superseded_by: null,
    source_session: null,
    source_type: 'explicit',
    confidence: 1,
    pinned: false,
    embedding_model: null,
    created_at: at,
    last_accessed: at,
    updated_at: at,
    deleted_at: null,
    version: 1,
    ...overrides,
  };
}
