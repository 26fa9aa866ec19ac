import { z } from 'zod';
import { anchorReportSchema, memoryLayerSchema } from './recallOutput.ts';

/**
 * What get_relevant_context returns (seed 000 §7.1), declared once as zod: contextApi's types are
 * inferred from it and the MCP tool lists it as its output schema.
 */

export const queryIntentSchema = z.enum(['how_to', 'what_happened', 'what_is', 'debug', 'general']);

export const contextItemSchema = z.object({
  source: z.enum(['working_memory', 'long_term']),
  memory_id: z.string().optional(),
  item_id: z.string().optional(),
  memory_category: z.string().optional(),
  memory_subtype: z.string().optional(),
  /** Layer of a long-term memory. */
  layer: memoryLayerSchema.optional(),
  content: z.string(),
  relevance_score: z.number(),
  token_count: z.number(),
  entities: z.array(z.string()).optional(),
  confidence: z.number().optional(),
  source_type: z.string().optional(),
  why_included: z.string(),
  /** The memory's code anchors with their status (issue #18). */
  anchors: z.array(anchorReportSchema).optional(),
});

export const contextOutputSchema = z.object({
  context_items: z.array(contextItemSchema),
  total_tokens: z.number(),
  budget_used_pct: z.number(),
  detected_intent: queryIntentSchema,
  retrieval_stats: z.object({
    working_memory_items: z.number(),
    long_term_searched: z.number(),
    long_term_returned: z.number(),
    by_category: z.record(z.string(), z.number()),
    entity_boost_applied: z.boolean(),
    mode: z.string(),
    /** The layers long-term memories and facts came from, most specific first. */
    searched_layers: z.array(memoryLayerSchema),
    /** The relevance floor long-term memories had to reach (pinned memories are always considered). */
    relevance_floor: z.number(),
    /** Long-term memories the floor left out. */
    long_term_below_floor: z.number(),
  }),
});

export type QueryIntent = z.infer<typeof queryIntentSchema>;
export type ContextItem = z.infer<typeof contextItemSchema>;
export type GetRelevantContextOutput = z.infer<typeof contextOutputSchema>;
