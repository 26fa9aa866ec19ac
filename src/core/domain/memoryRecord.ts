import { z } from 'zod';
import { MEMORY_LAYERS } from './layers.ts';
import { SOURCE_TYPES } from './recordChoices.ts';
import { MEMORY_CATEGORIES, MEMORY_SUBTYPES } from './taxonomy.ts';

export { SOURCE_TYPES };

/**
 * A long-term memory as it is persisted (seed 000 §6), declared once: the core's MemoryRecord type
 * is inferred from it, and each boundary has one codec built on it — store rows (one decoder for
 * SQLite and Firebolt, stores/common/recordRows.ts), the export file
 * (portability/exportFileReader.ts) and the MCP output schema (mcp/schemas.ts). Field names follow
 * the spec's columns so one shape travels from the store through the core to MCP output and the
 * panel without renaming layers. Timestamps are ISO-8601 strings in UTC.
 */
export const memoryRecordSchema = z.object({
  memory_id: z.string(),
  /**
   * The partition the memory lives in: the owner's user id for the personal layers (agent, user,
   * session), `<layer>:<id>` for the shared ones (project, team, org, company). Every store
   * operation is scoped by it (layerScope.ts).
   */
  user_id: z.string(),
  /** Seed 001 layer; personal layers share the user's partition and differ by layer and scope_id. */
  layer: z.enum(MEMORY_LAYERS),
  /** The identifier of the layer's scope: the user, agent, session, project, team, org or company id. */
  scope_id: z.string(),
  org_id: z.string().nullable(),
  /** Project scope; null means the memory belongs to the user across projects. */
  project_id: z.string().nullable(),
  memory_category: z.enum(MEMORY_CATEGORIES),
  memory_subtype: z.enum(MEMORY_SUBTYPES),
  content: z.string(),
  summary: z.string().nullable(),
  entities: z.array(z.string()),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  event_time: z.string().nullable(),
  is_temporal: z.boolean(),
  importance: z.number(),
  access_count: z.number(),
  decay_factor: z.number(),
  related_memories: z.array(z.string()),
  supersedes: z.string().nullable(),
  superseded_by: z.string().nullable(),
  source_session: z.string().nullable(),
  source_type: z.enum(SOURCE_TYPES),
  confidence: z.number(),
  pinned: z.boolean(),
  /** Model name of the stored embedding; null when the memory has none (yet). */
  embedding_model: z.string().nullable(),
  created_at: z.string(),
  last_accessed: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  /**
   * How many changes the memory has had: 1 when stored, +1 for every change (edit, enrichment,
   * forget, restore). Access bookkeeping (access_count, last_accessed) does not count: reading a
   * memory is not a change to it. A change that depends on what it read states this number.
   */
  version: z.number(),
});

export type MemoryRecord = z.infer<typeof memoryRecordSchema>;
export type SourceType = MemoryRecord['source_type'];

/** Every field of a memory record, in the schema's order. */
export const MEMORY_FIELDS = memoryRecordSchema.keyof().options;
