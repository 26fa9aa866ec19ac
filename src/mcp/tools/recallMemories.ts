import { z } from 'zod';
import { recallOutputSchema, recalledMemorySchema } from '../../core/api/recallOutput.ts';
import { LIMITS } from '../../core/validation.ts';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../../core/domain/taxonomy.ts';
import { recallText } from '../answerText.ts';
import { defineTool } from '../defineTool.ts';
import { layerListField, layerIdentifierFields, userIdField } from '../schemas.ts';

export const recallMemoriesTool = defineTool({
  name: 'recall_memories',
  title: 'Recall memories',
  description: 'Search long-term memory for past decisions, facts, how-tos and preferences, best first.',
  input: {
    user_id: userIdField,
    query: z.string(),
    memory_categories: z.array(z.enum(MEMORY_CATEGORIES as [string, ...string[]])).optional(),
    memory_subtypes: z.array(z.string()).optional(),
    entities: z.array(z.string()).optional().describe('Any of these, e.g. table:users.'),
    limit: z.number().int().min(1).max(LIMITS.recallLimit).optional().describe('Default 10.'),
    min_similarity: z.number().min(0).max(1).optional().describe('Floor on the final score, default 0.3.'),
    alternate_queries: z
      .array(z.string())
      .max(LIMITS.alternateQueries)
      .optional()
      .describe('Other wordings of the query.'),
    time_range: z
      .object({ after: z.string().optional(), before: z.string().optional() })
      .optional()
      .describe('ISO-8601 bounds on event time.'),
    tags: z.array(z.string()).optional().describe('Any of these.'),
    include_low_confidence: z.boolean().optional().describe('Include confidence below 0.8.'),
    layers: layerListField,
    explain: z.boolean().optional().describe('Add score breakdowns.'),
    ...layerIdentifierFields,
  },
  // The core's recall result, except that the score breakdown comes only with explain (run strips it).
  output: {
    ...recallOutputSchema.shape,
    memories: z.array(recalledMemorySchema.partial({ score_breakdown: true, why_matched: true })),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (context, { explain, ...args }, caller) => {
    const answer = await context.core.recall({
      ...caller.authorizeLayers(args),
      memory_categories: args.memory_categories as MemoryCategory[] | undefined,
      user_id: caller.user(),
    });
    if (explain) return answer;
    // The breakdown is a third of an answer's size and rarely read; explain asks for it.
    return {
      ...answer,
      memories: answer.memories.map(({ score_breakdown: _breakdown, why_matched: _why, ...memory }) => memory),
    };
  },
  render: (output, _args, view) => recallText(output.memories, output.retrieval_breakdown.note, view.shortId),
});
