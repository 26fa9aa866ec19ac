import type { MemoryLayer } from './layers.ts';
import type { MemoryCategory, MemorySubtype } from './taxonomy.ts';

/**
 * Persisted shapes. Field names follow the spec's columns (seed 000 §6) so one shape travels
 * from the store through the core to MCP output and the panel without renaming layers.
 * Timestamps are ISO-8601 strings in UTC.
 */

export type EvictionPolicy = 'lru' | 'relevance' | 'hybrid';
export type WorkingContentType =
  'message' | 'task_state' | 'scratchpad' | 'system' | 'retrieved_memory' | 'editor_context';
export type SourceType =
  'conversation' | 'explicit' | 'inferred' | 'observed' | 'editor' | 'extraction' | 'working_memory';

export interface SessionRecord {
  session_id: string;
  user_id: string;
  org_id: string | null;
  /** Project scope the session works in (workspace); null when none. */
  project_id: string | null;
  total_tokens: number;
  max_tokens: number;
  eviction_policy: EvictionPolicy;
  /** Next sequence number to hand out; items are ordered by it. */
  next_sequence: number;
  created_at: string;
  last_activity: string;
  expires_at: string | null;
  config: Record<string, unknown>;
}

export interface WorkingItemRecord {
  item_id: string;
  session_id: string;
  user_id: string;
  content_type: WorkingContentType;
  content: string;
  token_count: number;
  relevance_score: number;
  pinned: boolean;
  sequence_num: number;
  created_at: string;
  last_accessed: string;
  metadata: Record<string, unknown>;
}

export interface MemoryRecord {
  memory_id: string;
  /**
   * The partition the memory lives in: the owner's user id for the personal layers (agent, user,
   * session), `<layer>:<id>` for the shared ones (project, team, org, company). Every store
   * operation is scoped by it (layerScope.ts).
   */
  user_id: string;
  /** Seed 001 layer; personal layers share the user's partition and differ by layer and scope_id. */
  layer: MemoryLayer;
  /** The identifier of the layer's scope: the user, agent, session, project, team, org or company id. */
  scope_id: string;
  org_id: string | null;
  /** Project scope; null means the memory belongs to the user across projects. */
  project_id: string | null;
  memory_category: MemoryCategory;
  memory_subtype: MemorySubtype;
  content: string;
  summary: string | null;
  entities: string[];
  tags: string[];
  metadata: Record<string, unknown>;
  event_time: string | null;
  is_temporal: boolean;
  importance: number;
  access_count: number;
  decay_factor: number;
  related_memories: string[];
  supersedes: string | null;
  superseded_by: string | null;
  source_session: string | null;
  source_type: SourceType;
  confidence: number;
  pinned: boolean;
  /** Model name of the stored embedding; null when the memory has none (yet). */
  embedding_model: string | null;
  created_at: string;
  last_accessed: string;
  updated_at: string;
  deleted_at: string | null;
  /**
   * How many changes the memory has had: 1 when stored, +1 for every change (edit, enrichment,
   * forget, restore). Access bookkeeping (access_count, last_accessed) does not count: reading a
   * memory is not a change to it. A change that depends on what it read states this number.
   */
  version: number;
}

export interface StoredEmbedding {
  model: string;
  vector: Float32Array;
}

export interface AccessLogEntry {
  access_id: string;
  memory_id: string;
  session_id: string | null;
  user_id: string;
  query_text: string | null;
  similarity_score: number | null;
  tool: string;
  accessed_at: string;
}
