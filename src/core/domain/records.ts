
/**
 * Persisted shapes. Field names follow the spec's columns (seed 000 §6) so one shape travels
 * from the store through the core to MCP output and the panel without renaming layers.
 * Timestamps are ISO-8601 strings in UTC.
 */

export const EVICTION_POLICIES = ['lru', 'relevance', 'hybrid'] as const;
export type EvictionPolicy = (typeof EVICTION_POLICIES)[number];
export type WorkingContentType =
  'message' | 'task_state' | 'scratchpad' | 'system' | 'retrieved_memory' | 'editor_context';

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

/** The long-term memory record, declared once as a schema (memoryRecord.ts). */
export type { MemoryRecord, SourceType } from './memoryRecord.ts';

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
