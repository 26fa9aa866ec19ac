import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import {
  factCategoryField,
  factKeyField,
  factSchema,
  redactionsField,
  layerField,
  layerIdentifierFields,
  userIdField,
} from '../schemas.ts';
import { LIMITS } from '../../core/validation.ts';

export const setFactTool = defineTool({
  name: 'set_fact',
  title: 'Set a structured fact',
  description:
    'Set a fact under a key (one active value per key, older ones kept as history). Facts are always in get_relevant_context.',
  input: {
    user_id: userIdField,
    category: factCategoryField,
    key: factKeyField,
    value: z.string().min(1).max(LIMITS.factValueChars),
    confidence: z.number().min(0).max(1).optional().describe("Default 1; below the active value's, ignored."),
    importance: z.number().min(0).max(1).optional(),
    layer: layerField.optional().describe('Default user; a more specific layer overrides.'),
    ...layerIdentifierFields,
  },
  output: {
    action: z.enum(['created', 'updated', 'unchanged', 'ignored']).describe('What happened to the key.'),
    fact: factSchema.describe('The active fact after the call.'),
    previous: factSchema.optional().describe('The value that was replaced (action updated).'),
    reason: z.string(),
    redactions: redactionsField,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.setFact({ ...caller.resolveLayerArgs(args), user_id: caller.user() }),
});
