import { z } from 'zod';
import { workingItemRecordSchema } from '../../core/domain/workingRecords.ts';
import { defineTool } from '../defineTool.ts';
import { metadataField, redactionsField, sessionIdField, sessionUserField } from '../schemas.ts';

export const addToWorkingMemoryTool = defineTool({
  name: 'add_to_working_memory',
  title: 'Add to working memory',
  description:
    'Add an item to working memory; over budget, low-priority items are evicted, the worthwhile ones into long-term memory.',
  input: {
    session_id: sessionIdField,
    user_id: sessionUserField,
    content: z.string().describe('At most 100 KB.'),
    // Agents add these four; retrieved memories and editor context are the product's own items.
    content_type: workingItemRecordSchema.shape.content_type
      .extract(['message', 'task_state', 'scratchpad', 'system'])
      .describe('task_state (current plan) is protected from eviction.'),
    pinned: z.boolean().optional().describe('Never evicted.'),
    metadata: metadataField.optional().describe('Free-form JSON object; a numeric "relevance" (0..1) guides eviction.'),
  },
  output: {
    item_id: z.string(),
    token_count: z.number(),
    evicted_items: z.array(z.string()),
    promoted_items: z
      .array(z.object({ item_id: z.string(), memory_id: z.string().nullable(), action: z.string() }))
      .describe(
        'Evicted items worth keeping, queued for promotion to long-term memory right after this call (memory_id null until then).',
      ),
    total_tokens: z.number(),
    redactions: redactionsField,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args, caller) => context.core.addToWorkingMemory({ ...args, ...caller.sessionOwner() }),
});
