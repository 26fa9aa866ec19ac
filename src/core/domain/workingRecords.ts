import { z } from 'zod';
import { EVICTION_POLICIES, WORKING_CONTENT_TYPES } from './recordChoices.ts';

export { EVICTION_POLICIES, WORKING_CONTENT_TYPES };

/**
 * A working-memory session as it is persisted (seed 000 §6), declared once: the core's
 * SessionRecord type is inferred from it, and its enums are what the SQLite and Firebolt row
 * decoders (stores/common/workingRows.ts) and the export file reader (portability/exportFileReader.ts)
 * accept. Timestamps are ISO-8601 strings in UTC.
 */
export const sessionRecordSchema = z.object({
  session_id: z.string(),
  user_id: z.string(),
  org_id: z.string().nullable(),
  /** Project scope the session works in (workspace); null when none. */
  project_id: z.string().nullable(),
  total_tokens: z.number(),
  max_tokens: z.number(),
  eviction_policy: z.enum(EVICTION_POLICIES),
  /** Next sequence number to hand out; items are ordered by it. */
  next_sequence: z.number(),
  created_at: z.string(),
  last_activity: z.string(),
  expires_at: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
});

/** One item of a session's working memory as it is persisted (seed 000 §6), declared once like the session. */
export const workingItemRecordSchema = z.object({
  item_id: z.string(),
  session_id: z.string(),
  user_id: z.string(),
  content_type: z.enum(WORKING_CONTENT_TYPES),
  content: z.string(),
  token_count: z.number(),
  relevance_score: z.number(),
  pinned: z.boolean(),
  sequence_num: z.number(),
  created_at: z.string(),
  last_accessed: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});

export type SessionRecord = z.infer<typeof sessionRecordSchema>;
export type WorkingItemRecord = z.infer<typeof workingItemRecordSchema>;
export type EvictionPolicy = SessionRecord['eviction_policy'];
export type WorkingContentType = WorkingItemRecord['content_type'];
