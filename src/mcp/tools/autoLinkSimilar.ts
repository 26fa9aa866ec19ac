import { z } from 'zod';
import { DEFAULT_MAX_AUTO_LINKS } from '../../core/api/lifecycleApi.ts';
import { DEFAULT_LINK_THRESHOLD } from '../../core/api/lifecycleApi.ts';
import { defineTool } from '../defineTool.ts';
import { memoryIdField, userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const autoLinkSimilarTool = defineTool({
  name: 'auto_link_similar',
  title: 'Link a memory to similar ones',
  description:
    'Link a memory to the memories related to it (same topic): hybrid recall finds candidates, and those whose relatedness (embeddings when present, else shared index terms) reaches the threshold are linked.',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of the memory to link.'),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(`Minimum relatedness 0..1 for a link (default ${DEFAULT_LINK_THRESHOLD}).`),
    max_links: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.autoLinks)
      .optional()
      .describe(`Most links to add (default ${DEFAULT_MAX_AUTO_LINKS}).`),
  },
  output: {
    memory_id: z.string(),
    linked: z
      .array(z.object({ memory_id: z.string(), similarity: z.number() }))
      .describe('Memories now linked, most similar first.'),
    candidates_considered: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.autoLinkSimilar({ ...args, user_id: caller.user() }),
});
