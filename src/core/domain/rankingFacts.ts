/**
 * What recall ranks a candidate on, without its text: the fields the score, the signals, the
 * project scope, the time window, the relevance floor and neighbour expansion read. Stores keep
 * these per memory beside their indexes (MemoryStore.rankingFacts), so recall scores ~50–270
 * candidates from compact columns and reads full rows only for the memories it returns (and for
 * the few decisions that need the text or the anchors: layer overrides, anchor freshness).
 * This module is the one definition of every fact; stores and recall both derive them here.
 */
import type { TurnFacts } from './dialogTurn.ts';
import { turnFactsOf } from './dialogTurn.ts';
import type { MemoryRecord } from './records.ts';

/** The metadata key that holds a memory's code anchors (anchors/anchorModel.ts reads them). */
export const ANCHORS_FIELD = 'anchors';

export interface RankingFacts extends TurnFacts {
  memory_id: string;
  layer: MemoryRecord['layer'];
  project_id: string | null;
  /** `metadata.project` when it is a non-empty string (trimmed), else null (declaredProject). */
  declared_project: string | null;
  memory_category: MemoryRecord['memory_category'];
  memory_subtype: MemoryRecord['memory_subtype'];
  entities: readonly string[];
  importance: number;
  decay_factor: number;
  confidence: number;
  access_count: number;
  pinned: boolean;
  /** Epoch ms of created_at (ties in ranking: newest first). */
  created_ms: number;
  /** Epoch ms of last_accessed (the recency signal). */
  last_accessed_ms: number;
  /** Epoch ms of event_time, else created_at: when the memory happened (time windows, vague times). */
  happened_ms: number;
  /** The metadata holds a non-empty anchors list: its anchors' status may weigh its score (read from the row). */
  anchored: boolean;
}

/** `metadata.project` when it is a non-empty string, trimmed; null otherwise. */
export function declaredProject(metadata: Readonly<Record<string, unknown>>): string | null {
  const declared = metadata.project;
  return typeof declared === 'string' && declared.trim().length > 0 ? declared.trim() : null;
}

/** The metadata carries a non-empty anchors list (which entries are valid anchors is the row's business). */
export function carriesAnchors(metadata: Readonly<Record<string, unknown>>): boolean {
  const anchors = metadata[ANCHORS_FIELD];
  return Array.isArray(anchors) && anchors.length > 0;
}

/** The fields of a row the ranking facts are made of, beside its turn facts (no text). */
export const RANKING_SOURCE_FIELDS = [
  'memory_id',
  'layer',
  'project_id',
  'metadata',
  'memory_category',
  'memory_subtype',
  'entities',
  'importance',
  'decay_factor',
  'confidence',
  'access_count',
  'pinned',
  'created_at',
  'last_accessed',
  'event_time',
] as const;
export type RankingSource = Pick<MemoryRecord, (typeof RANKING_SOURCE_FIELDS)[number]>;

/** A memory's ranking facts from its full row: what every store's compact columns must equal. */
export function rankingFactsOf(memory: MemoryRecord): RankingFacts {
  return rankingFactsFrom(memory, turnFactsOf(memory));
}

/** The ranking facts of a row read without its text, its turn facts kept beside it. */
export function rankingFactsFrom(memory: RankingSource, turn: TurnFacts): RankingFacts {
  const created_ms = Date.parse(memory.created_at);
  return {
    conversation: turn.conversation,
    question: turn.question,
    memory_id: memory.memory_id,
    layer: memory.layer,
    project_id: memory.project_id,
    declared_project: declaredProject(memory.metadata),
    memory_category: memory.memory_category,
    memory_subtype: memory.memory_subtype,
    entities: memory.entities,
    importance: memory.importance,
    decay_factor: memory.decay_factor,
    confidence: memory.confidence,
    access_count: memory.access_count,
    pinned: memory.pinned,
    created_ms,
    last_accessed_ms: Date.parse(memory.last_accessed),
    happened_ms: memory.event_time === null ? created_ms : Date.parse(memory.event_time),
    anchored: carriesAnchors(memory.metadata),
  };
}
