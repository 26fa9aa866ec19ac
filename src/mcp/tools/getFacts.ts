import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { factKeyField, factSchema, layerListField, layerIdentifierFields, userIdField } from '../schemas.ts';

export const getFactsTool = defineTool({
  name: 'get_facts',
  title: 'Get structured facts',
  description: 'Look up active facts exactly: all, one category, or one key.',
  input: {
    user_id: userIdField,
    category: z.enum(['identity', 'preference', 'constraint', 'instruction']).optional(),
    key: factKeyField.optional().describe('Requires category.'),
    include_history: z.boolean().optional(),
    layers: layerListField,
    ...layerIdentifierFields,
  },
  output: {
    facts: z
      .array(
        factSchema.extend({
          history: z.array(factSchema).optional(),
          overridden_by: z
            .string()
            .optional()
            .describe("The more specific layer's value of the same key that applies instead."),
        }),
      )
      .describe('Active facts, most important first; one per key and layer.'),
    searched_layers: z.array(z.string()),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.getFacts({ ...caller.resolveLayerArgs(args, 'read'), user_id: caller.user() }),
});
