import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { metadataField, redactionsField, memoryLocationFields, userIdField } from '../schemas.ts';

export const updateMemoryTool = defineTool({
  name: 'update_memory',
  title: 'Update a memory',
  description: "Change a memory's content, importance or metadata (merged by key).",
  input: {
    memory_id: z.string(),
    user_id: userIdField,
    ...memoryLocationFields,
    content: z.string().optional(),
    importance: z.number().min(0).max(1).optional(),
    metadata: metadataField.optional().describe('Free-form JSON object merged into the existing one.'),
    expected_version: z.number().int().min(1).optional().describe('Apply only to this version, else CONFLICT.'),
  },
  output: { success: z.boolean(), re_embedded: z.boolean(), redactions: redactionsField },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (context, args, caller) => {
    const { success, re_embedded, redactions } = await context.core.updateMemory({
      ...caller.resolveLayerArgs(args),
      user_id: caller.user(),
    });
    return { success, re_embedded, redactions };
  },
});
