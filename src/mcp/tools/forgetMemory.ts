import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryLocationFields, userIdField } from '../schemas.ts';

export const forgetMemoryTool = defineTool({
  name: 'forget_memory',
  title: 'Forget a memory',
  description: 'Delete a memory: soft (restorable from the trash) unless hard_delete.',
  input: {
    memory_id: z.string(),
    user_id: userIdField,
    ...memoryLocationFields,
    hard_delete: z.boolean().optional(),
  },
  output: { success: z.boolean(), hard_deleted: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.forgetMemory({ ...caller.resolveLayerArgs(args), user_id: caller.user() }),
});
