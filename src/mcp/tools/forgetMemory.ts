import { z } from 'zod';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { memoryLocationFields, userIdField } from '../schemas.ts';
import { MAX_FORGET_IDS } from '../../core/api/longTermApi.ts';

export const forgetMemoryTool = defineTool({
  name: 'forget_memory',
  title: 'Forget a memory',
  description:
    'Delete a memory (memory_id) or many at once (memory_ids, one transaction): soft (restorable from the trash) unless hard_delete. A forgotten memory stays forgotten: later updates of it fail and background work on it is dropped.',
  input: {
    memory_id: z.string().optional(),
    memory_ids: z.array(z.string()).min(1).max(MAX_FORGET_IDS).optional(),
    user_id: userIdField,
    ...memoryLocationFields,
    hard_delete: z.boolean().optional(),
  },
  output: {
    success: z.boolean(),
    hard_deleted: z.boolean(),
    forgotten: z.array(z.string()),
    not_found: z.array(z.string()).describe('Ids of memory_ids this user has no memory with.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args) =>
    context.core.forgetMemory({ ...resolveLayerArgs(context, args), user_id: resolveUser(context, args.user_id) }),
});
