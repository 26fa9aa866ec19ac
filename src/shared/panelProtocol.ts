import type { GetRelevantContextOutput } from '../core/api/contextApi.ts';
import type { RecalledMemory, RetrievalBreakdown } from '../core/api/longTermApi.ts';
import type { WorkingMemoryState } from '../core/api/workingMemoryApi.ts';
import type { MemoryErrorCode } from '../core/domain/errors.ts';
import type { StoreUserStats } from '../core/ports/memoryStore.ts';
import type { MemoryRecord } from '../core/domain/records.ts';
import type { MemoryLayer } from '../core/domain/layers.ts';
import type { PromoteMemoryOutput } from '../core/api/layersApi.ts';
import type { SearchKeyView } from '../core/text/searchKeys.ts';
import type { EmbeddingStartupCheck } from '../core/ports/embeddingProvider.ts';
import type { EnrichmentState } from '../core/enrichment/pendingEnrichment.ts';

export type { SearchKeyView, EnrichmentState, EmbeddingStartupCheck };

/**
 * The one protocol between the memory panel (webview or browser page) and its host (the VS Code
 * extension or the HTTP server). Requests are a map method -> [params, result]; the host answers
 * every request with exactly one response; notifications flow host -> panel only. Both sides
 * import these types; only the host validates, because only the host trusts nothing it receives.
 */

/** Rows per list page; the panel asks for its first page before it has its init answer. */
export const PANEL_PAGE_SIZE = 200;
/** Results per search (the core's recall limit). */
export const PANEL_SEARCH_LIMIT = 100;

export type Scope = 'all' | 'user' | 'project' | 'session';
export type ListSort = 'recency' | 'importance' | 'access_count' | 'created';
export type SearchSort = 'relevance' | ListSort;
export type View = 'live' | 'trash';

/** Filters the memories tab offers; absent fields do not filter. */
export interface PanelFilter {
  scope?: Scope;
  categories?: string[];
  subtypes?: string[];
  pinned?: boolean;
  source_types?: string[];
  entities?: string[];
  tags?: string[];
  /** Only memories whose anchored code changed or is gone (the stale-code tag the editor keeps). */
  stale?: boolean;
  /** Inclusive ISO dates (YYYY-MM-DD or full timestamps). */
  after?: string;
  before?: string;
  view?: View;
}

export interface ListParams {
  filter: PanelFilter;
  sort: ListSort;
  offset: number;
  limit: number;
}

export interface SearchParams {
  query: string;
  filter: PanelFilter;
  sort: SearchSort;
  limit: number;
}

export interface MemoryPage {
  items: MemoryRecord[];
  total: number;
  offset: number;
}

export interface SearchResult {
  items: RecalledMemory[];
  breakdown: RetrievalBreakdown;
  elapsed_ms: number;
}

/** A memory opened in the detail pane, with its neighbours resolved to short summaries. */
export interface MemoryDetail {
  memory: MemoryRecord;
  /** Oldest first: memories this one replaced, then this one, then those that replaced it. */
  chain: MemorySummary[];
  related: MemorySummary[];
  /** Every search key with who added it (agent, user or model; which model and when). */
  search_keys: SearchKeyView[];
  /** Background enrichment of this memory: pending, done, skipped (and why) or failed; null when it never ran. */
  enrichment: EnrichmentState | null;
}

/** The user's edit of a memory's search keys; at least one list is non-empty. */
export interface SearchKeysParams {
  memory_id: string;
  add?: string[];
  remove?: string[];
}

export interface MemorySummary {
  memory_id: string;
  content: string;
  memory_category: string;
  memory_subtype: string;
  deleted: boolean;
}

export interface UpdateParams {
  memory_id: string;
  content?: string;
  memory_category?: string;
  memory_subtype?: string;
  importance?: number;
  tags?: string[];
  pinned?: boolean;
}

export interface WorkingView {
  /** Null when the user has no working-memory session yet. */
  state: WorkingMemoryState | null;
  /** Where the shown session came from and when it started; null with no session. */
  session: WorkingSessionInfo | null;
}

/**
 * How the shown session relates to the panel's window: started by this window, continued from
 * before a reload of it, or (outside an editor) the user's most recently active session.
 */
export type SessionOrigin = 'window' | 'reload' | 'latest';

export interface WorkingSessionInfo {
  started_at: string;
  last_activity: string;
  origin: SessionOrigin;
  /** How soon a reloaded window must come back to continue its session (editor only), in ms. */
  reload_limit_ms: number | null;
}

export interface CountPoint {
  /** Start of the bucket, ISO date. */
  start: string;
  count: number;
}

export interface PanelErrorEntry {
  at: string;
  code: string;
  message: string;
}

/** The store's own counts for the user, plus what the panel charts and reports. */
export interface Overview extends Omit<StoreUserStats, 'oldest' | 'newest'> {
  user_id: string;
  /** Cumulative live memories at the end of each week, oldest first. */
  growth: CountPoint[];
  /** Recalls served by this process per hour over the last day, oldest first. */
  recall_activity: CountPoint[];
  /** The latest recalls of this user, newest first, with the memories each handed out. */
  recent_recalls: RecentRecall[];
  backend: { kind: string; status: string; detail: string; latency_ms: number };
  embeddings: { provider: string; model: string | null; failures: number; startup_check: EmbeddingStartupCheck | null };
  /** Background search-key enrichment; null when no model is allowed. */
  enrichment: EnrichmentOverview | null;
  recent_errors: PanelErrorEntry[];
}

/** One recall: who asked (the tool), what, and which memories were handed out. */
export interface RecentRecall {
  at: string;
  /** recall_memories / get_relevant_context (agents) or chat_participant; the user's own searches are not listed. */
  tool: string;
  query: string;
  memories: Array<{ memory_id: string; summary: string; layer?: string }>;
}

export interface EnrichmentOverview {
  enricher: string;
  succeeded: number;
  skipped: number;
  failed: number;
  keys_added: number;
  last_error: { memory_id: string; code: string; message: string; at: string } | null;
}

export interface PreviewParams {
  query: string;
  token_budget: number;
}

/** What the panel needs before its first paint. */
export interface PanelInit {
  user_id: string;
  /** The user as a person reads it (an account name), where user_id is a generated id. */
  user_label: string;
  session_id: string | null;
  project_id: string | null;
  /** Category -> allowed subtypes, from the core taxonomy. */
  taxonomy: Record<string, string[]>;
  source_types: string[];
  scopes: Scope[];
  /** Layers a memory can be promoted to from here (seed 001): the project, configured team / org / company / agent. */
  promotion_targets: PromotionTarget[];
  /** Where the panel runs: the host picks it so the panel never sniffs its environment. */
  host: 'vscode' | 'browser';
}

export interface PromotionTarget {
  layer: MemoryLayer;
  scope_id: string;
  /** What the user reads, e.g. "Team platform". */
  label: string;
}

export interface PanelRequests {
  'panel/ready': { params: Record<string, never>; result: PanelInit };
  'memory/list': { params: ListParams; result: MemoryPage };
  'memory/search': { params: SearchParams; result: SearchResult };
  'memory/get': { params: { memory_id: string }; result: MemoryDetail };
  'memory/update': { params: UpdateParams; result: MemoryRecord };
  /** Adds (as the user's) or removes search keys; a removed key is never added back by a model. */
  'memory/searchKeys': { params: SearchKeysParams; result: MemoryDetail };
  'memory/forget': { params: { memory_ids: string[] }; result: { memory_ids: string[] } };
  'memory/restore': { params: { memory_ids: string[] }; result: { memory_ids: string[] } };
  /** Permanent; `confirm` must be true so a stray call cannot purge. */
  'memory/purge': { params: { memory_ids: string[]; confirm: true }; result: { memory_ids: string[] } };
  /** Copies the memory into one of the init's promotion targets, recording who and when. */
  'memory/promote': { params: { memory_id: string; to_layer: MemoryLayer }; result: PromoteMemoryOutput };
  'working/state': { params: Record<string, never>; result: WorkingView };
  'working/pin': { params: { item_id: string; pinned: boolean }; result: WorkingView };
  'working/evict': { params: { item_id: string }; result: WorkingView };
  'working/checkpoint': { params: Record<string, never>; result: WorkingView & { message: string } };
  'working/clear': { params: Record<string, never>; result: WorkingView & { message: string } };
  'overview/get': { params: Record<string, never>; result: Overview };
  'context/preview': { params: PreviewParams; result: GetRelevantContextOutput };
  /** The editor's selected text, for the context preview; always null in a browser. */
  'editor/selection': { params: Record<string, never>; result: { text: string | null } };
}

export type PanelMethod = keyof PanelRequests;
export type ParamsOf<M extends PanelMethod> = PanelRequests[M]['params'];
export type ResultOf<M extends PanelMethod> = PanelRequests[M]['result'];

/** Core error codes plus the ones only the panel boundary produces. */
export type PanelErrorCode = MemoryErrorCode | 'UNKNOWN_METHOD' | 'INVALID_REQUEST' | 'TRANSPORT_ERROR' | 'INTERNAL_ERROR';

export interface PanelError {
  code: PanelErrorCode;
  message: string;
}

export interface RequestMessage<M extends PanelMethod = PanelMethod> {
  kind: 'request';
  id: number;
  method: M;
  params: ParamsOf<M>;
}

export type ResponseMessage = { kind: 'response'; id: number; ok: true; result: unknown } | { kind: 'response'; id: number; ok: false; error: PanelError };

/**
 * Pushed when something the panel shows may have changed (the panel re-fetches what it displays),
 * or, `focus-list`, when the editor's "Show Memory Panel" asks for the keyboard focus on the list.
 */
export type PanelNotification =
  | { type: 'memories-changed'; memory_ids: string[]; change: string }
  | { type: 'working-changed'; session_id: string }
  | { type: 'store-changed' }
  | { type: 'focus-list' };

export interface NotificationMessage {
  kind: 'notification';
  notification: PanelNotification;
}

export type HostMessage = ResponseMessage | NotificationMessage;
