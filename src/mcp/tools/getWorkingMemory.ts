import { z } from 'zod';
import { defineTool, sessionOwner } from '../defineTool.ts';
import { sessionIdField, workingItemSchema, sessionUserField } from '../schemas.ts';

export const getWorkingMemoryTool = defineTool({
  name: 'get_working_memory',
  title: 'Read working memory',
  description: 'Get the session\'s working-memory items in conversation order, limited to a token budget (pinned items and task state are kept first, then the most recent).',
  input: {
    session_id: sessionIdField,
    user_id: sessionUserField,
    token_budget: z.number().int().positive().optional().describe('Maximum tokens to return; the session\'s max_tokens when omitted.'),
    include_types: z.array(z.string()).optional().describe('Only these content types (message, task_state, scratchpad, system, retrieved_memory, editor_context).'),
  },
  output: { items: z.array(workingItemSchema), total_tokens: z.number(), truncated: z.boolean() },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args) => context.core.working.get({ ...args, ...sessionOwner(context, args.user_id) }),
});
