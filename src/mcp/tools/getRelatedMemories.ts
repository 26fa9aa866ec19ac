import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const getRelatedMemoriesTool = defineTool({
  name: 'get_related_memories',
  title: 'Get related memories',
  description:
    'Walk the memory graph from one memory, breadth-first to max_depth: explicit links plus supersession (corrections). Each result carries its depth and the path of ids that connects it.',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of the memory to start from.'),
    max_depth: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.relatedDepth)
      .optional()
      .describe('How many hops to follow (default 2).'),
    limit: z.number().int().min(1).max(LIMITS.recallLimit).optional().describe('Most memories to return (default 20).'),
    include_supersession: z
      .boolean()
      .optional()
      .describe('Also follow supersedes / superseded_by edges (default true).'),
  },
  output: {
    start: z.string(),
    related_memories: z.array(
      z.object({
        memory_id: z.string(),
        content: z.string(),
        memory_category: z.string(),
        memory_subtype: z.string(),
        depth: z.number(),
        path: z.array(z.string()).describe('Ids from the start memory to this one.'),
        relationship: z.string().describe('Edge of the last hop: related, supersedes or superseded_by.'),
      }),
    ),
    truncated: z.boolean(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.relatedMemories({ ...args, user_id: caller.user() }),
});
