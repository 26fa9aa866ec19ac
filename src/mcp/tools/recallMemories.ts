import { z } from 'zod';
import type { MemoryCategory } from '../../core/domain/taxonomy.ts';
import { authorizeLayers, defineTool, resolveUser } from '../defineTool.ts';
import { categoryField, layerField, layerIdentifierFields, metadataField, overridesField, scoreBreakdownSchema, userIdField } from '../schemas.ts';

export const recallMemoriesTool = defineTool({
  name: 'recall_memories',
  title: 'Recall memories',
  description:
    'Search long-term memory with hybrid retrieval (full-text ranking, plus semantic similarity when an embedding provider is configured) and a composite relevance score (recency, importance, access frequency, memory type). Each result carries the contribution of every signal.',
  input: {
    user_id: userIdField,
    query: z.string().describe('Natural-language query.'),
    memory_categories: z.array(categoryField).optional().describe('Only these categories.'),
    memory_subtypes: z.array(z.string()).optional().describe('Only these subtypes, e.g. decision, entity, workflow.'),
    entities: z.array(z.string()).optional().describe('Only memories carrying at least one of these exact entities, e.g. database:prod_db.'),
    limit: z.number().int().min(1).max(100).optional().describe('Maximum results (default 10).'),
    min_similarity: z.number().min(0).max(1).optional().describe('Relevance floor on each result\'s final score, in every mode (default 0.3); nothing above it gives an empty list with retrieval_breakdown.abstained.'),
    alternate_queries: z.array(z.string()).max(5).optional().describe('Up to 5 other wordings of the query (synonyms, the likely words of the memory); pass them when the user\'s words may differ from how it was stored.'),
    time_range: z
      .object({ after: z.string().optional().describe('ISO-8601 lower bound on event time.'), before: z.string().optional().describe('ISO-8601 upper bound on event time.') })
      .optional()
      .describe('Only memories whose event time (or creation time) falls in the range.'),
    tags: z.array(z.string()).optional().describe('Only memories with at least one of these tags.'),
    include_low_confidence: z.boolean().optional().describe('Include memories with confidence below 0.8 (default false).'),
    layers: z
      .array(layerField)
      .optional()
      .describe('Layers to search; default every layer the identifiers open. On a conflict the more specific layer wins and the other is reported in overrides.'),
    ...layerIdentifierFields,
  },
  output: {
    memories: z.array(
      z.object({
        memory_id: z.string(),
        layer: z.string(),
        scope_id: z.string(),
        content: z.string(),
        memory_category: z.string(),
        memory_subtype: z.string(),
        entities: z.array(z.string()),
        similarity: z.number(),
        relevance_score: z.number(),
        confidence: z.number(),
        created_at: z.string(),
        event_time: z.string().optional(),
        metadata: metadataField,
        importance: z.number(),
        access_count: z.number(),
        pinned: z.boolean(),
        source_type: z.string(),
        tags: z.array(z.string()),
        score_breakdown: scoreBreakdownSchema,
        why_matched: z.string(),
        overrides: overridesField,
      }),
    ),
    retrieval_breakdown: z.object({
      by_category: z.record(z.string(), z.number()),
      by_subtype: z.record(z.string(), z.number()),
      entity_matches: z.number(),
      semantic_matches: z.number(),
      text_matches: z.number(),
      candidates_considered: z.number(),
      mode: z.string(),
      vector_method: z.string().nullable(),
      embedding_model: z.string().nullable(),
      time_filter: z.object({ after: z.string().optional(), before: z.string().optional(), matched: z.array(z.string()) }).nullable(),
      searched_layers: z.array(z.string()),
      overridden: z.number(),
      relevance_floor: z.number(),
      below_floor: z.number(),
      abstained: z.boolean(),
      best_below_floor: z.object({ memory_id: z.string(), relevance_score: z.number() }).nullable().optional(),
      note: z.string().optional(),
    }),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (context, args) =>
    context.core.recall({ ...authorizeLayers(context, args), memory_categories: args.memory_categories as MemoryCategory[] | undefined, user_id: resolveUser(context, args.user_id) }),
});
