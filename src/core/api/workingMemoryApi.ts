import type { EvictionPolicy, WorkingContentType, WorkingItemRecord } from '../domain/records.ts';
import type { Redaction } from '../safety/contentGuard.ts';

/** Inputs and outputs of the working-memory operations (seed 000 §7.1), shared by MCP tools, CLI and panel. */

export interface InitSessionInput {
  session_id?: string;
  user_id: string;
  org_id?: string;
  project_id?: string;
  config?: { max_tokens?: number; eviction_policy?: EvictionPolicy };
}

export interface WorkingMemoryState {
  session_id: string;
  user_id: string;
  project_id: string | null;
  max_tokens: number;
  total_tokens: number;
  eviction_policy: EvictionPolicy;
  item_count: number;
  items: WorkingItemRecord[];
}

export interface InitSessionOutput {
  session_id: string;
  created: boolean;
  working_memory: WorkingMemoryState;
}

export interface AddToWorkingMemoryInput {
  session_id: string;
  /** When given, must own the session. */
  user_id?: string;
  content: string;
  content_type: WorkingContentType;
  pinned?: boolean;
  metadata?: Record<string, unknown>;
  /** Replace the item with this id in place instead of appending (editor context capture uses it). */
  item_id?: string;
}

export interface PromotedItem {
  item_id: string;
  /** The long-term memory it became; null while an item evicted by add_to_working_memory is queued for promotion. */
  memory_id: string | null;
  action: 'created_new' | 'updated_existing' | 'skipped_duplicate' | 'queued';
}

export interface AddToWorkingMemoryOutput {
  item_id: string;
  token_count: number;
  evicted_items: string[];
  promoted_items: PromotedItem[];
  total_tokens: number;
  /** Credentials (and PII when enabled) replaced by [REDACTED:<kind>] before the item was kept, by kind. */
  redactions: Redaction[];
}

export interface GetWorkingMemoryInput {
  session_id: string;
  user_id?: string;
  token_budget?: number;
  include_types?: string[];
}

export interface GetWorkingMemoryOutput {
  items: WorkingItemRecord[];
  total_tokens: number;
  truncated: boolean;
}

export interface CheckpointInput {
  session_id: string;
  user_id?: string;
  force?: boolean;
}

export interface CheckpointOutput {
  memories_created: number;
  memories_updated: number;
  working_memory_tokens_freed: number;
  memory_ids: string[];
  skipped_reason?: string;
}

export interface ClearWorkingMemoryInput {
  session_id: string;
  user_id?: string;
  checkpoint_first?: boolean;
}

export interface ClearWorkingMemoryOutput {
  success: boolean;
  memories_preserved: number;
  items_removed: number;
}

export interface UpdateWorkingItemInput {
  session_id: string;
  user_id?: string;
  item_id: string;
  pinned?: boolean;
}

export interface EvictWorkingItemInput {
  session_id: string;
  user_id?: string;
  item_id: string;
  promote?: boolean;
}
