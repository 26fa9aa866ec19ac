import { z } from 'zod';
import { factsOf } from '../../core/facts/factsOf.ts';
import { defineTool, resolveLayerArgs, resolveUser } from '../defineTool.ts';
import { factCategoryField, factKeyField, factSchema, redactionsField, layerField, layerIdentifierFields, userIdField } from '../schemas.ts';

export const setFactTool = defineTool({
  name: 'set_fact',
  title: 'Set a structured fact',
  description:
    'Set a deterministic fact about the user (identity, preference, constraint, instruction) under a key. One active value per key; a new value replaces the active one only at equal or higher confidence, and the old value is kept as history. Facts are always included in get_relevant_context.',
  input: {
    user_id: userIdField,
    category: factCategoryField,
    key: factKeyField,
    value: z.string().min(1).max(2000).describe('The value, e.g. "Alex", "Europe/Berlin", "black with 100-column lines".'),
    confidence: z.number().min(0).max(1).optional().describe('0..1 (default 1). A lower confidence than the active value is ignored.'),
    importance: z.number().min(0).max(1).optional().describe('0..1 (default 0.8); facts are listed most important first.'),
    layer: layerField.optional().describe('Layer to set the fact in (default user). A project or team value applies to everyone with that id; a more specific layer\'s value of the same key overrides it.'),
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
  run: (context, args) => factsOf(context.core).set({ ...resolveLayerArgs(context, args), user_id: resolveUser(context, args.user_id) }),
});
