import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

const side = z.object({ memory_id: z.string(), content: z.string(), confidence: z.number(), created_at: z.string() });

export const findMemoryContradictionsTool = defineTool({
  name: 'find_memory_contradictions',
  title: 'Find contradicting memories',
  description:
    "List pairs of the user's current memories that look contradictory (same fact key with different values, a statement and its negation, one setting with two values), strongest first, each with the reason. Resolve a pair with supersede_memory.",
  input: {
    user_id: userIdField,
    limit: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.contradictionPairs)
      .optional()
      .describe('Most pairs to return (default 50).'),
  },
  output: {
    pairs: z
      .array(
        z.object({
          older: side,
          newer: side,
          kind: z.string(),
          strength: z.enum(['strong', 'weak']),
          reason: z.string(),
        }),
      )
      .describe('Suspected contradictions; strong ones are near-certain, weak ones need a human look.'),
    memories_scanned: z.number(),
    truncated: z.boolean().describe('True when the user has more memories than one scan reads (5000).'),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.findContradictions(caller.user(), {
      ...(args.limit ? { limit: args.limit } : {}),
      ...(context.core.defaultProjectId ? { project_id: context.core.defaultProjectId } : {}),
    }),
});
