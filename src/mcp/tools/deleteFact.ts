import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { factCategoryField, factKeyField, layerField, layerIdentifierFields, userIdField } from '../schemas.ts';

export const deleteFactTool = defineTool({
  name: 'delete_fact',
  title: 'Delete a structured fact',
  description: 'Remove the active value of a fact key (kept in history).',
  input: {
    user_id: userIdField,
    // set_fact's listing explains categories and keys; repeating it here would cost every request.
    category: z.enum(factCategoryField.options),
    key: factKeyField.describe('Case-insensitive.'),
    layer: layerField.optional().describe('Default user.'),
    ...layerIdentifierFields,
  },
  output: { deleted: z.boolean(), memory_id: z.string().describe('The memory that held the value.') },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (context, args, caller) => context.core.deleteFact({ ...caller.resolveLayerArgs(args), user_id: caller.user() }),
});
