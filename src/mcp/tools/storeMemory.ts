import { z } from 'zod';
import type { MemoryCategory } from '../../core/domain/taxonomy.ts';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { categoryField, layerField, layerIdentifierFields, redactionsField, subtypeField, userIdField } from '../schemas.ts';

export const storeMemoryTool = defineTool({
  name: 'store_memory',
  title: 'Store a long-term memory',
  description:
    'Store a memory explicitly (a decision, fact, workflow or preference). Entities are extracted when none are given; a near-duplicate (similarity >= 0.95) updates or skips instead of adding, and similar_existing says which.',
  input: {
    user_id: userIdField,
    content: z.string().describe('What to remember, self-contained (at most 100 KB).'),
    memory_category: categoryField,
    memory_subtype: subtypeField,
    importance: z.number().min(0).max(1).optional().describe('0..1, how likely this is needed again (default 0.5).'),
    entities: z.array(z.string()).optional().describe('Named entities as kind:name, e.g. database:prod_db, table:users, file:src/api.py; extracted from content when omitted.'),
    event_time: z.string().optional().describe('ISO-8601 time the event or decision happened (episodic memories).'),
    metadata: z
      .object({
        tags: z.array(z.string()).optional().describe('Tags to filter by.'),
        source: z.string().optional().describe('Where this came from.'),
        reasoning: z.string().optional().describe('Why a decision was made.'),
      })
      .catchall(z.unknown())
      .optional()
      .describe('Free-form JSON; tags, source and reasoning are understood.'),
    keywords: z.array(z.string()).max(30).optional().describe('Search keys the memory should also be found by (synonyms, categories, the questions it answers); pass them when later questions may use other words.'),
    supersedes: z.string().optional().describe('Id of a memory this one corrects; the old one is marked superseded and stops being recalled.'),
    layer: layerField.optional().describe('Layer to store in (default user). Shared layers (project, team, org, company) are visible to everyone with their id; to share an existing memory use promote_memory.'),
    ...layerIdentifierFields,
  },
  output: {
    memory_id: z.string(),
    entities_extracted: z.array(z.string()),
    similar_existing: z.object({ memory_id: z.string(), similarity: z.number(), content: z.string(), action: z.string() }).optional(),
    embedding_status: z.string(),
    redactions: redactionsField,
    contradicts: z
      .object({ memory_id: z.string(), kind: z.string(), reason: z.string() })
      .optional()
      .describe('A live memory this one contradicted; it is now superseded by this one and its confidence lowered.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args) =>
    context.core.longTerm.store({
      ...resolveLayerArgs(context, args),
      memory_category: args.memory_category as MemoryCategory,
      user_id: resolveUser(context, args.user_id),
    }),
});
