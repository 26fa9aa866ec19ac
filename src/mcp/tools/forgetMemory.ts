import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryLocationFields, userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/limits.ts';

export const forgetMemoryTool = defineTool({
  name: 'forget_memory',
  title: 'Forget a memory',
  description:
    'Delete a memory (memory_id) or many (memory_ids): soft (restorable, one transaction) unless hard_delete.',
  input: {
    memory_id: z.string().optional(),
    memory_ids: z.array(z.string()).min(1).max(LIMITS.batchIds).optional(),
    user_id: userIdField,
    ...memoryLocationFields,
    hard_delete: z.boolean().optional(),
  },
  output: {
    success: z.boolean(),
    hard_deleted: z.boolean(),
    forgotten: z.array(z.string()),
    not_found: z.array(z.string()),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.forgetMemory({ ...caller.resolveLayerArgs(args), user_id: caller.user() }),
});
