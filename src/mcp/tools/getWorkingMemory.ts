import { z } from 'zod';
import { LIMITS } from '../../core/validation.ts';
import { defineTool } from '../defineTool.ts';
import { sessionIdField, workingItemSchema, sessionUserField } from '../schemas.ts';

export const getWorkingMemoryTool = defineTool({
  name: 'get_working_memory',
  title: 'Read working memory',
  description: 'Read working memory in conversation order within a token budget, pinned and task state first.',
  input: {
    session_id: sessionIdField,
    user_id: sessionUserField,
    token_budget: z
      .number()
      .int()
      .positive()
      .max(LIMITS.tokenBudget)
      .optional()
      .describe("Default: the session's max_tokens."),
    include_types: z.array(z.string()).optional().describe('Only these content types.'),
  },
  output: { items: z.array(workingItemSchema), total_tokens: z.number(), truncated: z.boolean() },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.getWorkingMemory({ ...args, ...caller.sessionOwner() }),
});
