import { z } from 'zod';
import { LIMITS } from '../../core/validation.ts';
import { contextOutputSchema, queryIntentSchema } from '../../core/api/contextOutput.ts';
import { contextText } from '../answerText.ts';
import { defineTool } from '../defineTool.ts';
import { layerListField, layerIdentifierFields, sessionIdField, userIdField } from '../schemas.ts';

const weight = () => z.number().min(0).max(1).optional();

export const getRelevantContextTool = defineTool({
  name: 'get_relevant_context',
  title: 'Get relevant context',
  description:
    'The best context for a query within a token budget: working memory, facts and long-term memories weighted by intent.',
  input: {
    session_id: sessionIdField,
    user_id: userIdField,
    query: z.string(),
    token_budget: z.number().int().positive().max(LIMITS.tokenBudget),
    query_intent: queryIntentSchema.optional().describe('Detected when omitted.'),
    context_weights: z
      .object({
        working_memory: weight(),
        episodic_decisions: weight(),
        episodic_events: weight(),
        episodic_outcomes: weight(),
        semantic_project: weight(),
        semantic_entity: weight(),
        semantic_user: weight(),
        procedural_workflow: weight(),
        procedural_pattern: weight(),
        preference: weight(),
      })
      .optional()
      .describe('0 excludes a source; omitted ones follow the intent.'),
    focus_entities: z.array(z.string()).optional().describe('Boost these, e.g. table:users.'),
    layers: layerListField,
    agent_id: layerIdentifierFields.agent_id,
    project_id: layerIdentifierFields.project_id,
    team_id: layerIdentifierFields.team_id,
    org_id: layerIdentifierFields.org_id,
    company_id: layerIdentifierFields.company_id,
  },
  output: contextOutputSchema.shape,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.getRelevantContext({ ...caller.authorizeLayers(args), user_id: caller.user() }),
  render: (output) => contextText(output.context_items),
});
