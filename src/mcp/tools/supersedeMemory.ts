import { z } from 'zod';
import { supersedeMemory } from '../../core/lifecycle/supersede.ts';
import { defineTool, resolveUser } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';

export const supersedeMemoryTool = defineTool({
  name: 'supersede_memory',
  title: 'Mark a memory superseded',
  description: 'Correct the record: memory_id is outdated or wrong and superseded_by replaces it. The old memory stops being recalled, its confidence drops to at most 0.5, and both are linked so the history stays traceable.',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of the outdated memory.'),
    superseded_by: memoryIdField('Id of the memory that replaces it.'),
    reason: z.string().max(500).optional().describe('Why, kept in the old memory\'s metadata.superseded_reason.'),
  },
  output: { memory_id: z.string(), superseded_by: z.string(), previous_confidence: z.number(), confidence: z.number() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args) => supersedeMemory(context.core.coreDeps, { ...args, user_id: resolveUser(context, args.user_id) }),
});
