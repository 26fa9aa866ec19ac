import { z } from 'zod';
import { factsOf } from '../../core/facts/factsOf.ts';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { factKeyField, factSchema, layerField, layerIdentifierFields, userIdField } from '../schemas.ts';

export const getFactsTool = defineTool({
  name: 'get_facts',
  title: 'Get structured facts',
  description: 'Exact lookup of the active structured facts (no search, no vectors) in every layer open to the call: all of them, one category, or one key; include_history adds the older values of each key. When layers disagree on a key the most specific one applies and the others carry overridden_by.',
  input: {
    user_id: userIdField,
    category: z.enum(['identity', 'preference', 'constraint', 'instruction']).optional().describe('Only facts of this category.'),
    key: factKeyField.optional().describe('Only this key (requires category).'),
    include_history: z.boolean().optional().describe('Add superseded and deleted older values of each key, newest first (default false).'),
    layers: z.array(layerField).optional().describe('Layers to read; default every layer the identifiers open.'),
    ...layerIdentifierFields,
  },
  output: {
    facts: z
      .array(factSchema.extend({ history: z.array(factSchema).optional(), overridden_by: z.string().optional().describe('The more specific layer\'s value of the same key that applies instead.') }))
      .describe('Active facts, most important first; one per key and layer.'),
    searched_layers: z.array(z.string()),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args) => factsOf(context.core).get({ ...resolveLayerArgs(context, args, 'read'), user_id: resolveUser(context, args.user_id) }),
});
