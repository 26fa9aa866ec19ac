import { z } from 'zod';
import { FORGET_ALL_CONFIRMATION } from '../../core/api/longTermApi.ts';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';

export const forgetAllUserMemoriesTool = defineTool({
  name: 'forget_all_user_memories',
  title: 'Forget everything about a user',
  description: `Erase everything stored about the user, permanently (GDPR). Only when the user asks.`,
  input: {
    user_id: userIdField,
    confirmation: z.string().describe(`Must equal "${FORGET_ALL_CONFIRMATION}".`),
  },
  output: {
    memories_deleted: z.number(),
    sessions_deleted: z.number(),
    working_items_deleted: z.number(),
    access_log_deleted: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.forgetAllMemories({ ...args, user_id: caller.user() }),
});
