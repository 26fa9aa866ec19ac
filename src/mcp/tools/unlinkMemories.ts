import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';

export const unlinkMemoriesTool = defineTool({
  name: 'unlink_memories',
  title: 'Unlink two memories',
  description:
    'Remove the link between two memories on both sides. Works when the other memory is forgotten (removes the dangling link).',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of one memory.'),
    other_memory_id: memoryIdField('Id of the memory to unlink from it.'),
  },
  output: {
    memory_id: z.string(),
    other_memory_id: z.string(),
    changed: z.boolean().describe('False when they were not linked.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.unlinkMemories(caller.user(), args.memory_id, args.other_memory_id),
});
