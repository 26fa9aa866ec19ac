import { z } from 'zod';
import { factsOf } from '../../core/facts/factsOf.ts';
import { defineTool, resolveUser } from '../defineTool.ts';
import { factKeyField, factSchema, userIdField } from '../schemas.ts';

export const getFactsTool = defineTool({
  name: 'get_facts',
  title: 'Get structured facts',
  description: 'Exact lookup of the user\'s active structured facts (no search, no vectors): all of them, one category, or one key; include_history adds the older values of each key.',
  input: {
    user_id: userIdField,
    category: z.enum(['identity', 'preference', 'constraint', 'instruction']).optional().describe('Only facts of this category.'),
    key: factKeyField.optional().describe('Only this key (requires category).'),
    include_history: z.boolean().optional().describe('Add superseded and deleted older values of each key, newest first (default false).'),
  },
  output: {
    facts: z.array(factSchema.extend({ history: z.array(factSchema).optional() })).describe('Active facts, most important first.'),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args) => factsOf(context.core).get({ ...args, user_id: resolveUser(context, args.user_id) }),
});
