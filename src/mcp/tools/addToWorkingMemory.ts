import { z } from 'zod';
import { defineTool, sessionOwner } from '../defineTool.ts';
import { metadataField, redactionsField, sessionIdField, sessionUserField } from '../schemas.ts';

export const addToWorkingMemoryTool = defineTool({
  name: 'add_to_working_memory',
  title: 'Add to working memory',
  description:
    'Add an item to the session\'s working memory. When the token budget is exceeded, low-priority items are evicted (pinned items never) and those worth keeping are promoted to long-term memory; the result says which.',
  input: {
    session_id: sessionIdField,
    user_id: sessionUserField,
    content: z.string().describe('The text to keep in working memory (at most 100 KB).'),
    content_type: z.enum(['message', 'task_state', 'scratchpad', 'system']).describe('message: a conversation turn; task_state: the current plan or progress (protected from eviction); scratchpad: intermediate notes; system: instructions.'),
    pinned: z.boolean().optional().describe('Protect the item from eviction.'),
    metadata: metadataField.optional().describe('Free-form JSON kept with the item; a numeric "relevance" in [0,1] feeds the relevance eviction policy.'),
  },
  output: {
    item_id: z.string(),
    token_count: z.number(),
    evicted_items: z.array(z.string()),
    promoted_items: z
      .array(z.object({ item_id: z.string(), memory_id: z.string().nullable(), action: z.string() }))
      .describe('Evicted items worth keeping, queued for promotion to long-term memory right after this call (memory_id null until then).'),
    total_tokens: z.number(),
    redactions: redactionsField,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args) => context.core.working.add({ ...args, ...sessionOwner(context, args.user_id) }),
});
