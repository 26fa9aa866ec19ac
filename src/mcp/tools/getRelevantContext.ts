import { z } from 'zod';
import { contextText } from '../answerText.ts';
import { authorizeLayers, defineTool, resolveUser } from '../defineTool.ts';
import { anchorsField, layerListField, layerIdentifierFields, sessionIdField, userIdField } from '../schemas.ts';

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
    token_budget: z.number().int().positive(),
    query_intent: z.enum(['how_to', 'what_happened', 'what_is', 'debug', 'general']).optional().describe('Detected when omitted.'),
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
  output: {
    context_items: z.array(
      z.object({
        source: z.enum(['working_memory', 'long_term']),
        memory_id: z.string().optional(),
        item_id: z.string().optional(),
        memory_category: z.string().optional(),
        memory_subtype: z.string().optional(),
        layer: z.string().optional(),
        content: z.string(),
        relevance_score: z.number(),
        token_count: z.number(),
        entities: z.array(z.string()).optional(),
        confidence: z.number().optional(),
        source_type: z.string().optional(),
        why_included: z.string(),
        anchors: anchorsField,
      }),
    ),
    total_tokens: z.number(),
    budget_used_pct: z.number(),
    detected_intent: z.string(),
    retrieval_stats: z.object({
      working_memory_items: z.number(),
      long_term_searched: z.number(),
      long_term_returned: z.number(),
      by_category: z.record(z.string(), z.number()),
      entity_boost_applied: z.boolean(),
      mode: z.string(),
      searched_layers: z.array(z.string()),
      relevance_floor: z.number(),
      long_term_below_floor: z.number(),
    }),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args) => context.core.getRelevantContext({ ...authorizeLayers(context, args), user_id: resolveUser(context, args.user_id) }),
  render: (output) => contextText(output.context_items),
});
