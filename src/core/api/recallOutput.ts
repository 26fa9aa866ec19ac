import { z } from 'zod';
import type { AnchorReport } from '../anchors/anchorModel.ts';
import { MEMORY_LAYERS } from '../domain/layers.ts';
import type { OverriddenMemory } from './layersApi.ts';

/**
 * What recall returns (seed 000 §7.1), declared once as zod: the core's types are inferred from
 * these schemas and the MCP tools list them as their output schemas, so the two cannot drift.
 */

export const memoryLayerSchema = z.enum(MEMORY_LAYERS);

const lineRangeSchema = z.object({ start: z.number(), end: z.number() });

/** One anchor as recall and context report it (issue #18); checked against anchorModel's AnchorReport. */
export const anchorReportSchema = z.object({
  path: z.string(),
  symbol: z.object({ name: z.string(), kind: z.string() }).optional(),
  lines: lineRangeSchema,
  status: z.enum(['fresh', 'moved', 'changed', 'gone', 'unchecked']),
  current: z.object({ path: z.string(), lines: lineRangeSchema }).optional(),
}) satisfies z.ZodType<AnchorReport>;

export const overriddenMemorySchema = z.object({
  memory_id: z.string(),
  layer: memoryLayerSchema,
  content: z.string(),
  reason: z.string(),
}) satisfies z.ZodType<OverriddenMemory>;

/** Contribution of each signal to a result's score, all in [0, 1] except the multipliers. */
export const scoreBreakdownSchema = z.object({
  text_match: z.number(),
  semantic: z.number().nullable(),
  recency: z.number(),
  importance: z.number(),
  frequency: z.number(),
  type_weight: z.number(),
  entity_match: z.number(),
  confidence: z.number(),
  matched_terms: z.array(z.string()),
  matched_entities: z.array(z.string()),
  /**
   * 'partial': below the relevance floor, returned beside a result that clears it. 'time': it happened in the window the
   * query names. 'states_time': the question asks when and the memory says when (timeAnswerWeighting.ts).
   * 'other_project': the memory is about another project than the one the question names (it never clears the floor: a
   * near miss, namedScope.ts).
   */
  signals: z.array(
    z.enum(['text', 'semantic', 'entity', 'neighbour', 'pinned', 'partial', 'time', 'states_time', 'other_project']),
  ),
});

export const recalledMemorySchema = z.object({
  memory_id: z.string(),
  layer: memoryLayerSchema,
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
  metadata: z.record(z.string(), z.unknown()),
  importance: z.number(),
  access_count: z.number(),
  pinned: z.boolean(),
  source_type: z.string(),
  tags: z.array(z.string()),
  score_breakdown: scoreBreakdownSchema,
  why_matched: z.string(),
  overrides: z
    .array(overriddenMemorySchema)
    .optional()
    .describe('Conflicting memories of less specific layers this one overrides; they were left out of the results.'),
  /** The code this memory is anchored to, each with its freshness; absent when it has none. */
  anchors: z.array(anchorReportSchema).optional(),
});

export const retrievalBreakdownSchema = z.object({
  by_category: z.record(z.string(), z.number()),
  by_subtype: z.record(z.string(), z.number()),
  entity_matches: z.number(),
  semantic_matches: z.number(),
  text_matches: z.number(),
  candidates_considered: z.number(),
  /** 'lexical', 'hybrid' or 'lexical (embedding unavailable: …)'. */
  mode: z.string(),
  vector_method: z.string().nullable(),
  embedding_model: z.string().nullable(),
  time_filter: z
    .object({ after: z.string().optional(), before: z.string().optional(), matched: z.array(z.string()) })
    .nullable(),
  /** The layers searched, most specific first. */
  searched_layers: z.array(memoryLayerSchema),
  /** Results of less specific layers hidden by a conflicting more specific one. */
  overridden: z.number(),
  /** The floor every result's final score had to reach. */
  relevance_floor: z.number(),
  /** Candidates the floor left out (results marked 'partial' were kept beside a full match). */
  below_floor: z.number(),
  /** True when nothing reached the floor: memory has nothing on this query. */
  abstained: z.boolean(),
  /** When abstained: the best candidate the floor left out (null when nothing matched at all). */
  best_below_floor: z.object({ memory_id: z.string(), relevance_score: z.number() }).nullable().optional(),
  /** When abstained: one sentence for the agent saying so. */
  note: z.string().optional(),
});

export const recallOutputSchema = z.object({
  memories: z.array(recalledMemorySchema),
  retrieval_breakdown: retrievalBreakdownSchema,
});

export type ScoreBreakdown = z.infer<typeof scoreBreakdownSchema>;
export type RecalledMemory = z.infer<typeof recalledMemorySchema>;
export type RetrievalBreakdown = z.infer<typeof retrievalBreakdownSchema>;
export type RecallOutput = z.infer<typeof recallOutputSchema>;
