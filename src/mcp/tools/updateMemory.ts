import { z } from 'zod';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { metadataField, redactionsField, memoryLocationFields, userIdField } from '../schemas.ts';

export const updateMemoryTool = defineTool({
  name: 'update_memory',
  title: 'Update a memory',
  description: 'Change a memory\'s content (re-embedded when it changes), importance or metadata (merged with the existing metadata).',
  input: {
    memory_id: z.string().describe('Id of the memory to change.'),
    user_id: userIdField,
    ...memoryLocationFields,
    content: z.string().optional().describe('New content.'),
    importance: z.number().min(0).max(1).optional().describe('New importance, 0..1.'),
    metadata: metadataField.optional().describe('Keys to merge into the existing metadata.'),
  },
  output: { success: z.boolean(), re_embedded: z.boolean(), redactions: redactionsField },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (context, args) => {
    const { success, re_embedded, redactions } = await context.core.longTerm.update({ ...resolveLayerArgs(context, args), user_id: resolveUser(context, args.user_id) });
    return { success, re_embedded, redactions };
  },
});
