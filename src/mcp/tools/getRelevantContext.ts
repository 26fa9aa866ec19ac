import { z } from 'zod';
import { authorizeLayers, defineTool, resolveUser } from '../defineTool.ts';
import { layerField, layerIdentifierFields, sessionIdField, userIdField } from '../schemas.ts';

const weight = (what: string, fallback: number) => z.number().min(0).max(1).optional().describe(`Weight of ${what} (default ${fallback}).`);

export const getRelevantContextTool = defineTool({
  name: 'get_relevant_context',
  title: 'Get relevant context',
  description:
    'Assemble the best context for a query within a token budget: working memory plus long-term memories weighted by the detected intent (how_to, what_happened, what_is, debug, general), with the reason each item was included.',
  input: {
    session_id: sessionIdField,
    user_id: userIdField,
    query: z.string().describe('The current user query or task description.'),
    token_budget: z.number().int().positive().describe('How many tokens of context to return at most.'),
    query_intent: z.enum(['how_to', 'what_happened', 'what_is', 'debug', 'general']).optional().describe('Intent hint; detected from the query when omitted.'),
    context_weights: z
      .object({
        working_memory: weight('working memory', 0.35),
        episodic_decisions: weight('decisions', 0.15),
        episodic_events: weight('events', 0.05),
        episodic_outcomes: weight('outcomes', 0.1),
        semantic_project: weight('project facts', 0.1),
        semantic_entity: weight('entity facts', 0.1),
        semantic_user: weight('facts about the user', 0.05),
        procedural_workflow: weight('workflows', 0.05),
        procedural_pattern: weight('patterns', 0.03),
        preference: weight('preferences', 0.02),
      })
      .optional()
      .describe('Override the weight of each source; smart defaults otherwise.'),
    focus_entities: z.array(z.string()).optional().describe('Boost memories carrying these entities, e.g. table:users.'),
    layers: z.array(layerField).optional().describe('Layers to draw long-term memories and facts from; default every layer the identifiers open (the session\'s user, session and project, plus the configured team, org and company).'),
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
});
