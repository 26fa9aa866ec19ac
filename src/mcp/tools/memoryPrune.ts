import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const memoryPruneTool = defineTool({
  name: 'memory_prune',
  title: 'Prune old or low-value memories',
  description:
    'Archive (soft-delete, restorable from the trash) memories not accessed for older_than_days and/or whose score importance × decay_factor × confidence is below max_score; with both, both must hold. Pinned memories and structured facts are never pruned. dry_run lists what would be archived.',
  input: {
    user_id: userIdField,
    older_than_days: z
      .number()
      .min(1)
      .optional()
      .describe('Archive memories not accessed for more than this many days.'),
    max_score: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Archive memories scoring below this (importance × decay_factor × confidence).'),
    dry_run: z.boolean().optional().describe('Only report what would be archived (default false).'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.pruneBatch)
      .optional()
      .describe('Most memories to archive in one call (default 500).'),
  },
  output: {
    archived: z.array(
      z.object({
        memory_id: z.string(),
        content_preview: z.string(),
        score: z.number(),
        days_since_access: z.number(),
        reason: z.string(),
      }),
    ),
    archived_count: z.number(),
    memories_considered: z.number(),
    dry_run: z.boolean(),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.pruneMemories({ ...args, user_id: caller.user() }),
});
