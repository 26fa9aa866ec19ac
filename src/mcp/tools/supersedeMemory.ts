import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const supersedeMemoryTool = defineTool({
  name: 'supersede_memory',
  title: 'Mark a memory superseded',
  description: 'Mark memory_id outdated, replaced by superseded_by; it stops being recalled.',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('The outdated memory.'),
    superseded_by: memoryIdField('Its replacement.'),
    reason: z.string().max(LIMITS.reasonChars).optional(),
  },
  output: { memory_id: z.string(), superseded_by: z.string(), previous_confidence: z.number(), confidence: z.number() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.supersedeMemory({ ...args, user_id: caller.user() }),
});
