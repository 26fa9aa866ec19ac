import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';

export const linkMemoriesTool = defineTool({
  name: 'link_memories',
  title: 'Link two memories',
  description:
    "Record that two memories are related (both sides' related_memories are updated), so get_related_memories can walk from one to the other.",
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of one memory.'),
    other_memory_id: memoryIdField('Id of the memory to link it to.'),
  },
  output: {
    memory_id: z.string(),
    other_memory_id: z.string(),
    changed: z.boolean().describe('False when they were already linked.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.linkMemories(caller.user(), args.memory_id, args.other_memory_id),
});
