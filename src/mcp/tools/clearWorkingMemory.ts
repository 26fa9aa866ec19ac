import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { sessionIdField, sessionUserField } from '../schemas.ts';

export const clearWorkingMemoryTool = defineTool({
  name: 'clear_working_memory',
  title: 'Clear working memory',
  description: 'Empty working memory at the end of a session; checkpoints first unless checkpoint_first is false.',
  input: {
    session_id: sessionIdField,
    user_id: sessionUserField,
    checkpoint_first: z.boolean().optional(),
  },
  output: { success: z.boolean(), memories_preserved: z.number(), items_removed: z.number() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.clearWorkingMemory({ ...args, ...caller.sessionOwner() }),
});
