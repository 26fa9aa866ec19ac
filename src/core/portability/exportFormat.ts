import type { MemoryRecord, SessionRecord, WorkingItemRecord } from '../domain/records.ts';

/** The JSON a user's memory is exported as (seed 000 §10.3 GDPR data portability). */

export const EXPORT_FORMAT = 'firebolt-memory-layer/export';
export const EXPORT_FORMAT_VERSION = 1;

export interface ExportedMemory extends MemoryRecord {
  /** True for soft-deleted (trashed or archived) memories, which are exported too. */
  deleted: boolean;
}

export interface MemoryExport {
  format: typeof EXPORT_FORMAT;
  format_version: typeof EXPORT_FORMAT_VERSION;
  exported_at: string;
  user_id: string;
  counts: { memories: number; deleted_memories: number; sessions: number; working_items: number };
  /** Embeddings are not exported: they are derived data, model-specific, and re-created on import. */
  memories: ExportedMemory[];
  sessions: SessionRecord[];
  working_items: WorkingItemRecord[];
}
