import { z } from 'zod';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { memoryLocationFields, userIdField } from '../schemas.ts';

export const forgetMemoryTool = defineTool({
  name: 'forget_memory',
  title: 'Forget a memory',
  description: 'Delete a memory. Soft delete by default (hidden from recall, restorable from the panel\'s trash); hard_delete removes its content, embedding and index entries for good.',
  input: {
    memory_id: z.string().describe('Id of the memory to forget.'),
    user_id: userIdField,
    ...memoryLocationFields,
    hard_delete: z.boolean().optional().describe('Remove permanently (default false).'),
  },
  output: { success: z.boolean(), hard_deleted: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args) => context.core.longTerm.forget({ ...resolveLayerArgs(context, args), user_id: resolveUser(context, args.user_id) }),
});
