import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';

export const memoryQualityReportTool = defineTool({
  name: 'memory_quality_report',
  title: 'Memory quality report',
  description:
    "Audit the user's memory: near-duplicate groups, suspected contradictions, stale memories and memories with dangling links, plus a 0-100 health score and how it was computed.",
  input: { user_id: userIdField },
  output: {
    user_id: z.string(),
    total_memories: z.number(),
    duplicates: z.array(z.object({ memory_ids: z.array(z.string()), example: z.string() })),
    contradictions: z.array(z.object({ memory_ids: z.array(z.string()), kind: z.string(), reason: z.string() })),
    stale: z.array(z.object({ memory_id: z.string(), days_since_access: z.number(), decay_factor: z.number() })),
    orphaned: z.array(z.object({ memory_id: z.string(), missing_links: z.array(z.string()) })),
    health_score: z.number().describe('0 (poor) to 100 (healthy).'),
    score_explanation: z.string(),
    truncated: z.boolean(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.qualityReport(caller.user()),
});
