/**
 * Persisted shapes. Field names follow the spec's columns (seed 000 §6) so one shape travels
 * from the store through the core to MCP output and the panel without renaming layers.
 * Timestamps are ISO-8601 strings in UTC.
 */

/** Sessions and working items, declared once as schemas (workingRecords.ts). */
export { EVICTION_POLICIES } from './recordChoices.ts';
export type { EvictionPolicy, SessionRecord, WorkingContentType, WorkingItemRecord } from './workingRecords.ts';

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
