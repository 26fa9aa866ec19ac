import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

const nullableRecord = z.record(z.string(), z.unknown()).nullable();

export const runDailyMaintenanceTool = defineTool({
  name: 'run_daily_maintenance',
  title: 'Run memory maintenance',
  description:
    'Run the daily lifecycle now: Ebbinghaus decay (writes decay_factor; pinned never decays; nothing deleted), consolidation of near-duplicates into one traceable memory (originals archived), and pruning when a prune criterion is given. Returns a report of each step; dry_run changes nothing.',
  input: {
    user_id: userIdField,
    dry_run: z.boolean().optional().describe('Report what would change without changing anything (default false).'),
    decay: z
      .object({
        enabled: z.boolean().optional().describe('Run decay (default true).'),
        base_stability_days: z
          .number()
          .min(1)
          .max(LIMITS.stabilityDays)
          .optional()
          .describe('Base stability in days (default 30).'),
      })
      .optional()
      .describe('Decay step settings.'),
    consolidation: z
      .object({
        enabled: z.boolean().optional().describe('Run consolidation (default true).'),
        threshold: z.number().min(0.5).max(1).optional().describe('Similarity for near-duplicates (default 0.85).'),
        max_candidates: z
          .number()
          .int()
          .min(2)
          .max(LIMITS.consolidationCandidates)
          .optional()
          .describe('Most memories to cluster (default 1000).'),
      })
      .optional()
      .describe('Consolidation step settings.'),
    prune: z
      .object({
        enabled: z.boolean().optional().describe('Run pruning (default true when a criterion is given).'),
        older_than_days: z.number().min(1).optional().describe('Archive memories unused for more than this many days.'),
        max_score: z.number().min(0).max(1).optional().describe('Archive memories scoring below this.'),
        limit: z.number().int().min(1).max(LIMITS.pruneBatch).optional().describe('Most memories to archive.'),
      })
      .optional()
      .describe('Prune step settings; pruning is skipped without a criterion.'),
  },
  output: {
    user_id: z.string(),
    started_at: z.string(),
    finished_at: z.string(),
    dry_run: z.boolean(),
    decay: nullableRecord.describe('Decay result, null when disabled.'),
    consolidation: nullableRecord.describe('Consolidation result, null when disabled.'),
    prune: nullableRecord.describe('Prune result, null when skipped.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (context, args, caller) => {
    const { user_id, ...options } = args;
    const report = await context.core.runMaintenance(caller.user(), options);
    return report as unknown as {
      user_id: string;
      started_at: string;
      finished_at: string;
      dry_run: boolean;
      decay: Record<string, unknown> | null;
      consolidation: Record<string, unknown> | null;
      prune: Record<string, unknown> | null;
    };
  },
});
