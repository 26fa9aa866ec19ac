import type { ContextItem, GetRelevantContextInput, QueryIntent } from '../api/contextApi.ts';
import type { OverriddenMemory } from '../api/layersApi.ts';
import type { MemoryRecord, WorkingItemRecord } from '../domain/records.ts';
import { anchorsOf, type AnchorReport, reportOf } from '../anchors/anchorModel.ts';
import { staleNote } from '../anchors/anchorFreshness.ts';
import type { ScoredMemory } from '../retrieval/recall.ts';
import { explainMatch } from '../retrieval/relevance.ts';
import { workingMemoryMultiplier } from '../retrieval/typeWeights.ts';
import { analyzeQuery } from '../text/analyzer.ts';
import type { LruCache } from '../util/lruCache.ts';

/** The candidates of get_relevant_context: working-memory items and long-term memories, each scored and explained. */

/** A context item before it is made safe and measured (token counting is the costly part). */
export type DraftItem = Omit<ContextItem, 'token_count'>;

export interface Candidate {
  item: DraftItem;
  typeKey: string;
  score: number;
  scored?: ScoredMemory;
}

/** Working-memory items scored by shared query terms, recency, pins and task state. `itemTerms` caches each content's terms. */
export function workingCandidates(
  itemTerms: LruCache<string, Set<string>>,
  items: readonly WorkingItemRecord[],
  query: string,
  weights: GetRelevantContextInput['context_weights'],
): Candidate[] {
  const queryTerms = new Set(analyzeQuery(query).map((term) => term.term));
  const multiplier = workingMemoryMultiplier(weights);
  const newest = items.reduce((max, item) => Math.max(max, item.sequence_num), 0);
  return items.map((item) => {
    let terms = itemTerms.get(item.content);
    if (!terms) {
      terms = new Set(analyzeQuery(item.content).map((term) => term.term));
      itemTerms.set(item.content, terms);
    }
    let overlap = 0;
    for (const term of queryTerms) if (terms.has(term)) overlap++;
    const match = queryTerms.size > 0 ? overlap / queryTerms.size : 0;
    const recency = newest > 0 ? item.sequence_num / newest : 1;
    const protectedBonus = item.pinned || item.content_type === 'task_state' ? 0.25 : 0;
    const score = Math.min(1, (0.5 * match + 0.25 * recency + protectedBonus) * multiplier);
    const reasons = [
      item.pinned ? 'pinned' : null,
      item.content_type === 'task_state' ? 'current task state' : null,
      match > 0 ? `shares ${overlap} of ${queryTerms.size} query terms` : null,
      recency === 1 ? 'most recent item' : null,
    ].filter((reason): reason is string => reason !== null);
    return {
      typeKey: 'working_memory',
      score,
      item: {
        source: 'working_memory' as const,
        item_id: item.item_id,
        content: item.content,
        relevance_score: round(score),
        token_count: item.token_count,
        why_included: `Working memory (${item.content_type})${reasons.length > 0 ? `: ${reasons.join(', ')}` : ''}.`,
      },
    };
  });
}

export function longTermCandidate(
  entry: ScoredMemory,
  intent: QueryIntent,
  overrides: readonly OverriddenMemory[] | undefined,
): Candidate {
  const { memory } = entry;
  const layer = memory.layer === 'user' ? '' : ` (${memory.layer} layer)`;
  const overriding = overrides?.length
    ? ` It overrides ${overrides.map((other) => `a conflicting ${other.layer}-layer memory`).join(' and ')}: the more specific layer wins.`
    : '';
  const why = `${memory.memory_category}.${memory.memory_subtype} memory${layer} for a ${intent} query: ${explainMatch(entry.breakdown)}.${overriding}`;
  return { ...memoryCandidate(memory, entry.score, why, entry.anchors), scored: entry };
}

export function memoryCandidate(memory: MemoryRecord, score: number, why: string, checked?: AnchorReport[]): Candidate {
  // Pinned memories come from a listing, not recall: their anchors carry the status last stored.
  const anchors = checked ?? anchorsOf(memory.metadata).map((anchor) => reportOf(anchor, null));
  const stale = staleNote(anchors);
  return {
    typeKey: `${memory.memory_category}.${memory.memory_subtype}`,
    score,
    item: {
      source: 'long_term',
      memory_id: memory.memory_id,
      memory_category: memory.memory_category,
      memory_subtype: memory.memory_subtype,
      layer: memory.layer,
      // The note travels inside the delimited content, so no rendering can present the memory as current.
      content: stale ? `${stale}\n${memory.content}` : memory.content,
      relevance_score: round(score),
      entities: memory.entities,
      ...(anchors.length > 0 ? { anchors } : {}),
      confidence: memory.confidence,
      source_type: memory.source_type,
      why_included: why,
    },
  };
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
