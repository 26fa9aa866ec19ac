import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { layerField, layerIdentifierFields, memoryIdField, userIdField } from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

const promotionSchema = z.object({
  from_memory_id: z.string(),
  from_layer: z.string(),
  from_scope_id: z.string(),
  to_memory_id: z.string(),
  to_layer: z.string(),
  to_scope_id: z.string(),
  promoted_by: z.string().describe('The user who promoted it.'),
  promoted_at: z.string().describe('When, ISO-8601.'),
  reason: z.string().nullable(),
});

export const promoteMemoryTool = defineTool({
  name: 'promote_memory',
  title: 'Promote a memory to another layer',
  description:
    'Copy a memory into another layer (seed 001), e.g. a convention learned in your own memory up to the project or team layer so everyone with that id gets it. Promotion only ever happens through this tool or the editor command; the copy records who promoted what and when, and the original keeps a pointer to it.',
  input: {
    user_id: userIdField,
    memory_id: memoryIdField('Id of the memory to promote.'),
    to_layer: layerField.describe(
      'Layer to copy the memory into: agent, user, session, project, team, org or company.',
    ),
    from_layer: layerField
      .optional()
      .describe(
        'Layer the memory is in when it is a shared one (project, team, org, company); omit for your own memories.',
      ),
    reason: z
      .string()
      .max(LIMITS.reasonChars)
      .optional()
      .describe('Why it is promoted; kept with the promotion record.'),
    move: z.boolean().optional().describe('Forget the original after copying (default false).'),
    ...layerIdentifierFields,
  },
  output: {
    action: z
      .enum(['promoted', 'merged', 'already_promoted'])
      .describe(
        'promoted: a new memory in the target layer; merged: a near-duplicate there now carries the promotion; already_promoted: done before.',
      ),
    memory_id: z.string().describe('The memory in the target layer.'),
    promotion: promotionSchema,
    source_removed: z.boolean(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.promoteMemory({ ...caller.resolveLayerArgs(args), user_id: caller.user() }),
});
