import { z } from 'zod';
import { MEMORY_LAYERS } from '../core/domain/layers.ts';
import { memoryRecordSchema as storedMemorySchema } from '../core/domain/memoryRecord.ts';
import { MEMORY_CATEGORIES, MEMORY_SUBTYPES } from '../core/domain/taxonomy.ts';
import { LIMITS } from '../core/validation.ts';

/**
 * Zod fragments shared by several tools. Every agent request carries the tool list, so a
 * description says what a model needs to act and no more; a field whose name says it all has none.
 */

/**
 * An identifier: 1 to LIMITS.idChars characters. The length is checked by a refinement rather
 * than minLength/maxLength so the listed schema stays a plain string; an id too long is still
 * refused, with a message saying the limit.
 */
export const idString = () =>
  z
    .string()
    .refine((value) => value.length > 0 && value.length <= LIMITS.idChars, `must be 1 to ${LIMITS.idChars} characters`);

export const userIdField = idString().optional().describe('Required unless the server is bound to a user.');

export const sessionUserField = idString().optional().describe("The session's owner.");

export const sessionIdField = idString().describe('From init_session.');

export const categoryField = z
  .enum(MEMORY_CATEGORIES as [string, ...string[]])
  .describe('episodic: what happened; semantic: facts; procedural: how to; preference: learned behaviour.');

export const subtypeField = z
  .string()
  .describe(
    'episodic: event|decision|conversation|outcome; semantic: user|project|environment|domain|entity; procedural: workflow|pattern|tool_usage|debugging; preference: communication|style|tools|boundaries.',
  );

/** A free-form JSON object; the tool's own description says which keys it understands. */
export const metadataField = z.record(z.string(), z.unknown()).describe('Free-form JSON object.');

/**
 * A plain string, not an enum: an unknown layer must reach the core and fail there with seed
 * 001's INVALID_LAYER, not be turned into a generic validation error before the tool runs.
 */
export const layerField = z
  .string()
  .describe(
    `One of ${MEMORY_LAYERS.join(', ')}; project, team, org and company are shared with everyone who has the id.`,
  );

/** Layers to read from; the listing repeats it in several tools, so it says the least it can. */
// Strings, like layerField: an unknown layer reaches the core and fails with INVALID_LAYER.
export const layerListField = z.array(z.string()).optional().describe('Default: all open layers.');

const idField = (what: string) => idString().optional().describe(what);

/** The identifiers that open layers; each tool that reads or writes a layer takes these. */
export const layerIdentifierFields = {
  agent_id: idField('Opens the agent layer.'),
  session_id: idString().optional(),
  // Named after the layer they open; the layer field's description says what sharing means.
  project_id: idString().optional(),
  team_id: idString().optional(),
  org_id: idString().optional(),
  company_id: idString().optional(),
};

/**
 * What store_memory takes: one anchor as a string (anchorSpec.ts). Every request carries the tool
 * listing (budget: test/mcp/leanSurface.test.ts), so agents get one anchor in a few tokens; the core,
 * the editor and the CLI take up to five.
 */
export const anchorInputField = z.string().optional().describe('path#symbol or path:a-b');

export const workingItemSchema = z.object({
  item_id: z.string(),
  session_id: z.string(),
  user_id: z.string(),
  content_type: z.string(),
  content: z.string(),
  token_count: z.number(),
  relevance_score: z.number(),
  pinned: z.boolean(),
  sequence_num: z.number(),
  created_at: z.string(),
  last_accessed: z.string(),
  metadata: metadataField,
});

export const workingStateSchema = z.object({
  session_id: z.string(),
  user_id: z.string(),
  project_id: z.string().nullable(),
  max_tokens: z.number(),
  total_tokens: z.number(),
  eviction_policy: z.string(),
  item_count: z.number(),
  items: z.array(workingItemSchema),
});

export const redactionsField = z
  .array(
    z.object({
      kind: z
        .string()
        .describe('What was redacted: a credential kind (openai-key, password-assignment, …) or email / phone.'),
      count: z.number().describe('How many occurrences were replaced by [REDACTED:<kind>].'),
    }),
  )
  .describe('Secrets (and PII when enabled) replaced before storage; empty when nothing was redacted.');

export const knownSubtypes = MEMORY_SUBTYPES as string[];

export const factCategoryField = z
  .enum(['identity', 'preference', 'constraint', 'instruction'])
  .describe('identity: name, location; preference: language, style; constraint: limits; instruction: standing rules.');

export const factKeyField = z
  .string()
  .min(1)
  .max(LIMITS.factKeyChars)
  .describe('e.g. name, timezone, coding_style (case-insensitive).');

export const factSchema = z.object({
  category: z.string(),
  key: z.string(),
  value: z.string(),
  memory_id: z.string(),
  layer: z.string().describe('Layer the value was set in; for one key the most specific layer wins.'),
  scope_id: z.string(),
  confidence: z.number(),
  importance: z.number(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  supersedes: z.string().nullable(),
  superseded_by: z.string().nullable(),
  deleted: z.boolean(),
});

/** A memory record as tools return it: the core's one declaration (core/domain/memoryRecord.ts), with what an agent needs told. */
export const memoryRecordSchema = storedMemorySchema.extend({
  user_id: storedMemorySchema.shape.user_id.describe(
    "The memory's partition: the owner's user id, or <layer>:<id> for a shared layer.",
  ),
  version: storedMemorySchema.shape.version.describe(
    'Raised by every change; pass it as expected_version to update_memory to edit only this version.',
  ),
});

export const memoryIdField = (what: string) => idString().describe(what);

/** Where a memory of a shared layer lives; personal-layer memories (agent, user, session) need none of it. */
export const memoryLocationFields = {
  layer: layerField.optional().describe('Only for a shared-layer memory.'),
  project_id: layerIdentifierFields.project_id,
  team_id: layerIdentifierFields.team_id,
  org_id: layerIdentifierFields.org_id,
  company_id: layerIdentifierFields.company_id,
};
