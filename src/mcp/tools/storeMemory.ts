import { z } from 'zod';
import type { MemoryCategory } from '../../core/domain/taxonomy.ts';
import { defineTool } from '../defineTool.ts';
import { anchorArgs } from '../toolAnchors.ts';
import {
  anchorInputField,
  categoryField,
  layerField,
  layerIdentifierFields,
  redactionsField,
  subtypeField,
  userIdField,
} from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const storeMemoryTool = defineTool({
  name: 'store_memory',
  title: 'Store a long-term memory',
  description:
    'Remember a decision, fact, workflow or preference. A near-duplicate updates or skips instead (similar_existing says which).',
  input: {
    user_id: userIdField,
    content: z.string().describe('Self-contained; at most 100 KB.'),
    memory_category: categoryField,
    memory_subtype: subtypeField,
    importance: z.number().min(0).max(1).optional().describe('Default 0.5.'),
    entities: z.array(z.string()).optional().describe('kind:name, e.g. table:users; extracted when omitted.'),
    event_time: z.string().optional().describe('ISO-8601.'),
    metadata: z
      .object({ tags: z.array(z.string()).optional(), source: z.string().optional(), reasoning: z.string().optional() })
      .catchall(z.unknown())
      .optional()
      .describe('Free-form JSON object.'),
    keywords: z
      .array(z.string())
      .max(LIMITS.searchKeys)
      .optional()
      .describe('Other words to find it by: synonyms, questions it answers.'),
    supersedes: z.string().optional().describe('Id of a memory this one corrects.'),
    anchor: anchorInputField,
    layer: layerField.optional().describe('Default user.'),
    ...layerIdentifierFields,
  },
  output: {
    memory_id: z.string(),
    entities_extracted: z.array(z.string()),
    similar_existing: z
      .object({ memory_id: z.string(), similarity: z.number(), content: z.string(), action: z.string() })
      .optional(),
    embedding_status: z.string(),
    redactions: redactionsField,
    contradicts: z
      .object({ memory_id: z.string(), kind: z.string(), reason: z.string() })
      .optional()
      .describe('A live memory this one contradicted; it is now superseded by this one and its confidence lowered.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (context, { anchor, ...args }, caller) =>
    context.core.storeMemory({
      ...caller.resolveLayerArgs(args),
      ...(await anchorArgs(context, anchor, args.metadata)),
      memory_category: args.memory_category as MemoryCategory,
      user_id: caller.user(),
    }),
});
