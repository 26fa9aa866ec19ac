import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

const counts = z.record(z.string(), z.number());

export const getMemoryAnalyticsTool = defineTool({
  name: 'get_memory_analytics',
  title: 'Memory analytics',
  description:
    "Counts of the user's memories by category, subtype and source, memories created per time bucket, the most accessed memories, and recall activity (from store stats and access counts).",
  input: {
    user_id: userIdField,
    bucket: z.enum(['day', 'week', 'month']).optional().describe('Time bucket for created_over_time (default week).'),
    buckets: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.analyticsBuckets)
      .optional()
      .describe('How many buckets back from now (default 12).'),
  },
  output: {
    user_id: z.string(),
    totals: z.object({
      live: z.number(),
      deleted: z.number(),
      pinned: z.number(),
      embedded: z.number(),
      sessions: z.number(),
      working_items: z.number(),
    }),
    by_category: counts,
    by_subtype: counts,
    by_source: counts,
    created_over_time: z.array(z.object({ bucket: z.string(), count: z.number(), by_category: counts })),
    most_accessed: z.array(
      z.object({
        memory_id: z.string(),
        content_preview: z.string(),
        access_count: z.number(),
        last_accessed: z.string(),
      }),
    ),
    recall_activity: z.object({
      access_log_entries: z.number(),
      total_accesses: z.number(),
      accessed_memories: z.number(),
      source: z.string(),
    }),
    truncated: z.boolean(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.analytics(caller.user(), {
      ...(args.bucket ? { bucket: args.bucket } : {}),
      ...(args.buckets ? { buckets: args.buckets } : {}),
    }),
});
