import type { RecalledMemory } from '../api/longTermApi.ts';
import { explainMatch } from './relevance.ts';
import type { ScoredMemory } from './scoredMemory.ts';

/** A scored memory as recall_memories returns it, with its score breakdown and why_matched. */
export function toRecalled(entry: ScoredMemory): RecalledMemory {
  const { memory } = entry;
  return {
    memory_id: memory.memory_id,
    layer: memory.layer,
    scope_id: memory.scope_id,
    content: memory.content,
    memory_category: memory.memory_category,
    memory_subtype: memory.memory_subtype,
    entities: memory.entities,
    similarity: Math.round(entry.similarity * 1000) / 1000,
    relevance_score: Math.round(entry.score * 1000) / 1000,
    confidence: memory.confidence,
    created_at: memory.created_at,
    ...(memory.event_time ? { event_time: memory.event_time } : {}),
    metadata: memory.metadata,
    importance: memory.importance,
    access_count: memory.access_count,
    pinned: memory.pinned,
    source_type: memory.source_type,
    tags: memory.tags,
    score_breakdown: entry.breakdown,
    why_matched: explainMatch(entry.breakdown, entry.bridges),
    ...(entry.anchors ? { anchors: entry.anchors } : {}),
  };
}
