import { z } from 'zod';
import { autoLinkSimilar } from '../../core/lifecycle/links.ts';
import { defineTool, resolveUser } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';

export const autoLinkSimilarTool = defineTool({
  name: 'auto_link_similar',
  title: 'Link a memory to similar ones',
  description: 'Find the memories most similar to one memory (hybrid recall, then content similarity: vectors when present, else words) and link those at or above the threshold.',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of the memory to link.'),
    threshold: z.number().min(0).max(1).optional().describe('Minimum similarity 0..1 for a link (default 0.5).'),
    max_links: z.number().int().min(1).max(50).optional().describe('Most links to add (default 5).'),
  },
  output: {
    memory_id: z.string(),
    linked: z.array(z.object({ memory_id: z.string(), similarity: z.number() })).describe('Memories now linked, most similar first.'),
    candidates_considered: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args) => autoLinkSimilar(context.core, { ...args, user_id: resolveUser(context, args.user_id) }),
});
