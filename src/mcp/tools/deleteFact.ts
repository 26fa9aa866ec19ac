import { z } from 'zod';
import { factsOf } from '../../core/facts/factsOf.ts';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { factCategoryField, factKeyField, layerField, layerIdentifierFields, userIdField } from '../schemas.ts';

export const deleteFactTool = defineTool({
  name: 'delete_fact',
  title: 'Delete a structured fact',
  description: 'Remove the active value of a fact key (soft delete: it stops being used and stays in the history and the trash). Fails with MEMORY_NOT_FOUND when the key has no active value.',
  input: {
    user_id: userIdField,
    category: factCategoryField,
    key: factKeyField,
    layer: layerField.optional().describe('Layer the fact was set in (default user).'),
    ...layerIdentifierFields,
  },
  output: { deleted: z.boolean(), memory_id: z.string().describe('The memory that held the value.') },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (context, args) => factsOf(context.core).delete({ ...resolveLayerArgs(context, args), user_id: resolveUser(context, args.user_id) }),
});
