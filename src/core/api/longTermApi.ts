import type { MemoryRecord, SourceType } from '../domain/records.ts';
import type { LayerName } from '../domain/layers.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';
import type { Redaction } from '../safety/contentGuard.ts';
import type { AnchorInput } from '../anchors/anchorModel.ts';

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

export type { RecallOutput, RecalledMemory, RetrievalBreakdown, ScoreBreakdown } from './recallOutput.ts';

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
  /** The version the caller's edit is based on; when the memory has another, CONFLICT and nothing changes. */
  expected_version?: number;
}

export interface UpdateMemoryOutput {
  success: boolean;
  re_embedded: boolean;
  memory: MemoryRecord;
  redactions: Redaction[];
}

/** One memory (`memory_id`) or many (`memory_ids`, one store write); at least one id. */
export interface ForgetMemoryInput extends MemoryLocation {
  memory_id?: string;
  memory_ids?: string[];
  user_id: string;
  hard_delete?: boolean;
}

export interface ForgetMemoryOutput {
  success: boolean;
  hard_deleted: boolean;
  /** Ids that are forgotten (or erased) now, including ones that already were. */
  forgotten: string[];
  /** Ids of a batch that this user has no memory with. */
  not_found: string[];
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
