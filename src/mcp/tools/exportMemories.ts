import { z } from 'zod';
import { exportMemories } from '../../core/portability/exportMemories.ts';
import { defineTool, resolveUser } from '../defineTool.ts';
import { memoryRecordSchema, userIdField, workingItemSchema } from '../schemas.ts';

export const exportMemoriesTool = defineTool({
  name: 'export_memories',
  title: 'Export all memories (GDPR)',
  description: 'Everything stored for the user as re-importable JSON with a format version: all memories (forgotten and superseded ones included and flagged), sessions and working-memory items. Embeddings are not exported.',
  input: { user_id: userIdField },
  output: {
    format: z.string(),
    format_version: z.number(),
    exported_at: z.string(),
    user_id: z.string(),
    counts: z.object({ memories: z.number(), deleted_memories: z.number(), sessions: z.number(), working_items: z.number() }),
    memories: z.array(memoryRecordSchema.extend({ deleted: z.boolean() })),
    sessions: z.array(z.record(z.string(), z.unknown())),
    working_items: z.array(workingItemSchema),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (context, args) => {
    const data = await exportMemories(context.core.coreDeps, resolveUser(context, args.user_id));
    return { ...data, sessions: data.sessions as unknown as Array<Record<string, unknown>> };
  },
});
