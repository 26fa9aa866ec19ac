import type { MemoryMeta } from '../../src/stores/sqlite/memoryMeta.ts';

/** A live semantic/project meta of alice's user layer, every time 1 ms, for tests of the meta table and index files. */
export function memoryMeta(memory_id: string, overrides: Partial<MemoryMeta> = {}): MemoryMeta {
  return {
    memory_id,
    layer: 'user',
    scope_id: 'alice',
    project_id: null,
    category: 'semantic',
    subtype: 'project',
    entities: [],
    tags: [],
    time_ms: 1,
    confidence: 1,
    pinned: false,
    source_type: 'explicit',
    source_session: null,
    conversation: null,
    question: false,
    deleted: false,
    superseded: false,
    importance: 0.5,
    access_count: 0,
    last_accessed_ms: 1,
    created_ms: 1,
    decay_factor: 1,
    declared_project: null,
    anchored: false,
    ...overrides,
  };
}
