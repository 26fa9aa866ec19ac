import { randomUUID } from 'node:crypto';
import type {
  AccessLogEntry,
  MemoryRecord,
  SessionRecord,
  StoredEmbedding,
  WorkingItemRecord,
} from '../../src/core/domain/records.ts';

/**
 * Record factories for the store contract. Every id and user is random, so tests never collide
 * even when a backend's factory hands out one shared database.
 */
export const MODEL = 'contract-embed-small';
export const OTHER_MODEL = 'contract-embed-large';

export function newUserId(): string {
  return `user_${randomUUID()}`;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

export function iso(day: number, hour = 0): string {
  return new Date(Date.UTC(2026, 0, 1 + day, hour)).toISOString();
}

export function makeMemory(userId: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    memory_id: newId('mem'),
    user_id: userId,
    layer: 'user',
    scope_id: userId,
    org_id: null,
    project_id: null,
    memory_category: 'semantic',
    memory_subtype: 'project',
    content: 'The project uses PostgreSQL for persistence.',
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
    created_at: iso(0),
    last_accessed: iso(0),
    updated_at: iso(0),
    deleted_at: null,
    version: 1,
    ...overrides,
  };
}

export function makeSession(userId: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    session_id: newId('sess'),
    user_id: userId,
    org_id: null,
    project_id: null,
    total_tokens: 0,
    max_tokens: 8000,
    eviction_policy: 'hybrid',
    next_sequence: 0,
    created_at: iso(0),
    last_activity: iso(0),
    expires_at: null,
    config: {},
    ...overrides,
  };
}

export function makeWorkingItem(
  session: SessionRecord,
  sequence: number,
  overrides: Partial<WorkingItemRecord> = {},
): WorkingItemRecord {
  return {
    item_id: newId('wmi'),
    session_id: session.session_id,
    user_id: session.user_id,
    content_type: 'message',
    content: `item ${sequence}`,
    token_count: 10,
    relevance_score: 1,
    pinned: false,
    sequence_num: sequence,
    created_at: iso(0),
    last_accessed: iso(0),
    metadata: {},
    ...overrides,
  };
}

export function makeAccess(memory: MemoryRecord, overrides: Partial<AccessLogEntry> = {}): AccessLogEntry {
  return {
    access_id: newId('acc'),
    memory_id: memory.memory_id,
    session_id: null,
    user_id: memory.user_id,
    query_text: 'what database',
    similarity_score: 0.8,
    tool: 'recall',
    accessed_at: iso(5),
    ...overrides,
  };
}

/** Deterministic pseudo-random generator (mulberry32), so vector tests are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomUnitVector(dims: number, random: () => number): Float32Array {
  const vector = new Float32Array(dims);
  let sum = 0;
  for (let i = 0; i < dims; i++) {
    vector[i] = random() * 2 - 1;
    sum += vector[i] * vector[i];
  }
  const norm = Math.sqrt(sum);
  for (let i = 0; i < dims; i++) vector[i] /= norm;
  return vector;
}

/** A vector whose cosine to `base` is about `similarity` (base must be a unit vector). */
export function vectorNear(base: Float32Array, similarity: number, random: () => number): Float32Array {
  const noise = randomUnitVector(base.length, random);
  let dot = 0;
  for (let i = 0; i < base.length; i++) dot += noise[i] * base[i];
  const orthogonal = new Float32Array(base.length);
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    orthogonal[i] = noise[i] - dot * base[i];
    sum += orthogonal[i] * orthogonal[i];
  }
  const scale = Math.sqrt(1 - similarity * similarity) / Math.sqrt(sum);
  const out = new Float32Array(base.length);
  for (let i = 0; i < base.length; i++) out[i] = similarity * base[i] + orthogonal[i] * scale;
  return out;
}

export function cosineOf(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

export function embedding(vector: Float32Array, model = MODEL): StoredEmbedding {
  return { model, vector };
}
