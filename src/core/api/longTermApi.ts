import type { MemoryRecord, SourceType } from '../domain/records.ts';
import type { LayerName, MemoryLayer } from '../domain/layers.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';
import type { OverriddenMemory } from './layersApi.ts';
import type { Redaction } from '../safety/contentGuard.ts';
import type { AnchorInput, AnchorReport } from '../anchors/anchorModel.ts';

/** Inputs and outputs of the long-term memory operations (seed 000 §7.1). */

export interface StoreMemoryInput {
  user_id: string;
  content: string;
  memory_category: MemoryCategory;
  memory_subtype: string;
  importance?: number;
  entities?: string[];
  event_time?: string;
  metadata?: { tags?: string[]; source?: string; reasoning?: string; [key: string]: unknown };
  /** Search keys: other words the memory should be found by (synonyms, categories, questions it answers). */
  keywords?: string[];
  /** Id of a memory this one corrects; the old one is marked superseded and hidden from recall. */
  supersedes?: string;
  project_id?: string | null;
  org_id?: string;
  session_id?: string;
  /** Layer to store in (seed 001; default 'user'); its identifiers must be given. */
  layer?: LayerName;
  agent_id?: string;
  team_id?: string;
  company_id?: string;
  source_type?: SourceType;
  confidence?: number;
  pinned?: boolean;
  /** Code this memory is about (issue #18), resolved against the workspace: a path with a symbol or a line range. */
  anchors?: AnchorInput[];
}

export type DuplicateAction = 'created_new' | 'updated_existing' | 'skipped_duplicate';

export interface SimilarExisting {
  memory_id: string;
  similarity: number;
  content: string;
  action: DuplicateAction;
}

export interface StoreMemoryOutput {
  memory_id: string;
  entities_extracted: string[];
  similar_existing?: SimilarExisting;
  /** 'embedded', 'pending' (provider unavailable; re-embedded later) or 'none' (no provider configured). */
  embedding_status: 'embedded' | 'pending' | 'none';
  /** Credentials (and PII when enabled) replaced by [REDACTED:<kind>] before storage, by kind. */
  redactions: Redaction[];
  /** A live memory this one contradicted; it is now superseded by this one and its confidence lowered. */
  contradicts?: { memory_id: string; kind: string; reason: string };
}

export interface RecallInput {
  user_id: string;
  query: string;
  memory_categories?: MemoryCategory[];
  memory_subtypes?: string[];
  entities?: string[];
  limit?: number;
  /** Relevance floor on each result's final score (default config.relevanceFloor), in every mode. */
  min_similarity?: number;
  /** Other wordings of the query from the agent; a memory matching one counts a little less than the query itself. */
  alternate_queries?: string[];
  time_range?: { after?: string; before?: string };
  tags?: string[];
  include_low_confidence?: boolean;
  project_id?: string | null;
  session_id?: string;
  /** Boost memories carrying these entities (seed 000 §13.2). */
  focus_entities?: string[];
  /** Layers to search (seed 001); default: every layer the identifiers open. */
  layers?: LayerName[];
  agent_id?: string;
  team_id?: string;
  org_id?: string;
  company_id?: string;
  /** Only memories anchored to (or naming) this workspace-relative file: "what do we know about this file". */
  path?: string;
}

/** Contribution of each signal to a result's score, all in [0, 1] except the multipliers. */
export interface ScoreBreakdown {
  text_match: number;
  semantic: number | null;
  recency: number;
  importance: number;
  frequency: number;
  type_weight: number;
  entity_match: number;
  confidence: number;
  matched_terms: string[];
  matched_entities: string[];
  /** 'partial': below the relevance floor, returned beside a result that clears it. */
  signals: Array<'text' | 'semantic' | 'entity' | 'neighbour' | 'pinned' | 'partial'>;
}

export interface RecalledMemory {
  memory_id: string;
  layer: MemoryLayer;
  scope_id: string;
  content: string;
  memory_category: string;
  memory_subtype: string;
  entities: string[];
  similarity: number;
  relevance_score: number;
  confidence: number;
  created_at: string;
  event_time?: string;
  metadata: Record<string, unknown>;
  importance: number;
  access_count: number;
  pinned: boolean;
  source_type: string;
  tags: string[];
  score_breakdown: ScoreBreakdown;
  why_matched: string;
  /** Conflicting memories of less specific layers this one overrides (seed 001 precedence). */
  overrides?: OverriddenMemory[];
  /** The code this memory is anchored to, each with its freshness (issue #18); absent when it has none. */
  anchors?: AnchorReport[];
}

export interface RetrievalBreakdown {
  by_category: Record<string, number>;
  by_subtype: Record<string, number>;
  entity_matches: number;
  semantic_matches: number;
  text_matches: number;
  candidates_considered: number;
  /** 'lexical', 'hybrid' or 'lexical (embedding unavailable: …)'. */
  mode: string;
  vector_method: string | null;
  embedding_model: string | null;
  time_filter: { after?: string; before?: string; matched: string[] } | null;
  /** The layers searched, most specific first. */
  searched_layers: MemoryLayer[];
  /** Results of less specific layers hidden by a conflicting more specific one. */
  overridden: number;
  /** The floor every result's final score had to reach. */
  relevance_floor: number;
  /** Candidates the floor left out (results marked 'partial' were kept beside a full match). */
  below_floor: number;
  /** True when nothing reached the floor: memory has nothing on this query. */
  abstained: boolean;
  /** When abstained: the best candidate the floor left out (null when nothing matched at all). */
  best_below_floor?: { memory_id: string; relevance_score: number } | null;
  /** When abstained: one sentence for the agent saying so. */
  note?: string;
}

export interface RecallOutput {
  memories: RecalledMemory[];
  retrieval_breakdown: RetrievalBreakdown;
}

/** Names the shared layer a memory lives in; agent and session memories are found without it. */
export interface MemoryLocation {
  layer?: LayerName;
  project_id?: string | null;
  team_id?: string;
  org_id?: string;
  company_id?: string;
}

export interface UpdateMemoryInput extends MemoryLocation {
  memory_id: string;
  user_id: string;
  content?: string;
  importance?: number;
  metadata?: Record<string, unknown>;
  memory_category?: MemoryCategory;
  memory_subtype?: string;
  tags?: string[];
  entities?: string[];
  pinned?: boolean;
  confidence?: number;
}

export interface UpdateMemoryOutput {
  success: boolean;
  re_embedded: boolean;
  memory: MemoryRecord;
  redactions: Redaction[];
}

export interface ForgetMemoryInput extends MemoryLocation {
  memory_id: string;
  user_id: string;
  hard_delete?: boolean;
}

export interface ForgetAllInput {
  user_id: string;
  confirmation: string;
}

export interface ForgetAllOutput {
  memories_deleted: number;
  sessions_deleted: number;
  working_items_deleted: number;
  access_log_deleted: number;
}

export const FORGET_ALL_CONFIRMATION = 'CONFIRM_DELETE_ALL';
