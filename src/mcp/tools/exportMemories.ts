import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryRecordSchema, userIdField, workingItemSchema } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const exportMemoriesTool = defineTool({
  name: 'export_memories',
  title: 'Export all memories (GDPR)',
  description:
    'Everything stored for the user as re-importable JSON with a format version: all memories (forgotten and superseded ones included and flagged), sessions and working-memory items, one page (about 2 MB) per call. While next_cursor is not null, call again with cursor: next_cursor and append the arrays; counts are the totals. Embeddings are not exported.',
  input: {
    user_id: userIdField,
    cursor: z
      .string()
      .max(LIMITS.cursorChars)
      .optional()
      .describe('next_cursor of the previous page; omit for the first page.'),
  },
  output: {
    format: z.string(),
    format_version: z.number(),
    exported_at: z.string(),
    user_id: z.string(),
    counts: z.object({
      memories: z.number(),
      deleted_memories: z.number(),
      sessions: z.number(),
      working_items: z.number(),
    }),
    memories: z.array(memoryRecordSchema.extend({ deleted: z.boolean() })),
    sessions: z.array(z.record(z.string(), z.unknown())),
    working_items: z.array(workingItemSchema),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as cursor to get the next page; null when this was the last page.'),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (context, args, caller) => {
    const data = await context.core.exportPage(caller.user(), args.cursor);
    return { ...data, sessions: data.sessions as unknown as Array<Record<string, unknown>> };
  },
});
