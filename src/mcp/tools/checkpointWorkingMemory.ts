import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { sessionIdField, sessionUserField } from '../schemas.ts';

export const checkpointWorkingMemoryTool = defineTool({
  name: 'checkpoint_working_memory',
  title: 'Checkpoint working memory',
  description:
    'Save what is worth keeping from working memory as long-term memories and free the tokens. Does nothing below 6000 tokens unless force.',
  input: {
    session_id: sessionIdField,
    user_id: sessionUserField,
    force: z.boolean().optional(),
  },
  output: {
    memories_created: z.number(),
    memories_updated: z.number(),
    working_memory_tokens_freed: z.number(),
    memory_ids: z.array(z.string()),
    skipped_reason: z.string().optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args, caller) => context.core.checkpointWorkingMemory({ ...args, ...caller.sessionOwner() }),
});
