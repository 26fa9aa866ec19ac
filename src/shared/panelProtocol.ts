import type { GetRelevantContextOutput } from '../core/api/contextApi.ts';
import type { RecalledMemory, RetrievalBreakdown } from '../core/api/longTermApi.ts';
import type { WorkingMemoryState } from '../core/api/workingMemoryApi.ts';
import type { MemoryErrorCode } from '../core/domain/errors.ts';
import type { StoreUserStats } from '../core/ports/memoryStore.ts';
import type { MemoryRecord } from '../core/domain/records.ts';
import type { MemoryLayer } from '../core/domain/layers.ts';
import type { PromoteMemoryOutput } from '../core/api/layersApi.ts';
import type { SearchKeyView } from '../core/api/searchKeysApi.ts';
import type { EmbeddingStartupCheck } from '../core/ports/embeddingProvider.ts';
import type { EnrichmentState } from '../core/api/searchKeysApi.ts';

export type { SearchKeyView, EnrichmentState, EmbeddingStartupCheck };
import type { z } from 'zod';
import type {
  EDITOR_ACTIONS,
  LIST_SORTS,
  SCOPES,
  SEARCH_SORTS,
  VIEWS,
  panelFilterSchema,
  panelParamSchemas,
} from './panelSchemas.ts';

// The core types the panel shows, re-exported so the webview imports only this contract.
export type { GetRelevantContextOutput, MemoryRecord, RecalledMemory, RetrievalBreakdown };
export { anchorSummary, type AnchorSummary } from '../core/api/anchorsApi.ts';

/**
 * The one protocol between the memory panel (webview or browser page) and its host (the VS Code
 * extension or the HTTP server). Requests are a map method -> [params, result]; the host answers
 * every request with exactly one response; notifications flow host -> panel only. Request params
 * are declared once as zod schemas (panelSchemas.ts) and their types inferred here; only the host
 * validates with them, because only the host trusts nothing it receives. This file imports them
 * as types only, so the webview, which imports this file, bundles no zod.
 */

/** Rows per list page; the panel asks for its first page before it has its init answer. */
export const PANEL_PAGE_SIZE = 200;
/** Results per search (the core's recall limit). */
export const PANEL_SEARCH_LIMIT = 100;

export type Scope = (typeof SCOPES)[number];
export type ListSort = (typeof LIST_SORTS)[number];
export type SearchSort = (typeof SEARCH_SORTS)[number];
export type View = (typeof VIEWS)[number];
export type EditorAction = (typeof EDITOR_ACTIONS)[number];

/** Filters the memories tab offers; absent fields do not filter. */
export type PanelFilter = z.infer<typeof panelFilterSchema>;
export type ListParams = z.infer<(typeof panelParamSchemas)['memory/list']>;
export type SearchParams = z.infer<(typeof panelParamSchemas)['memory/search']>;
export type UpdateParams = z.infer<(typeof panelParamSchemas)['memory/update']>;
export type PreviewParams = z.infer<(typeof panelParamSchemas)['context/preview']>;
/** The user's edit of a memory's search keys; the core refuses an edit with both lists empty. */
export type SearchKeysParams = z.infer<(typeof panelParamSchemas)['memory/searchKeys']>;

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

export interface MemorySummary {
  memory_id: string;
  content: string;
  memory_category: string;
  memory_subtype: string;
  deleted: boolean;
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

/** What the panel needs before its first paint. */
export interface PanelInit {
  user_id: string;
  /** The user as a person reads it (an account name), where user_id is a generated id. */
  user_label: string;
  /** Where user_id comes from (the setting, the data directory's id file), or null when the host does not say. */
  user_source: string | null;
  /** The store the panel reads (backend and place), or null when the host does not say. */
  store: string | null;
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
  /** The editor actions this host runs (editor/run); empty in a browser. */
  editor_actions: EditorAction[];
}

export interface PromotionTarget {
  layer: MemoryLayer;
  scope_id: string;
  /** What the user reads, e.g. "Team platform". */
  label: string;
}

/** What the host answers to each request; the params are the schemas' (panelSchemas.ts). */
export interface PanelResults {
  'panel/ready': PanelInit;
  'memory/list': MemoryPage;
  'memory/search': SearchResult;
  'memory/get': MemoryDetail;
  'memory/update': MemoryRecord;
  /** Adds (as the user's) or removes search keys; a removed key is never added back by a model. */
  'memory/searchKeys': MemoryDetail;
  'memory/forget': { memory_ids: string[] };
  'memory/restore': { memory_ids: string[] };
  'memory/purge': { memory_ids: string[] };
  'memory/promote': PromoteMemoryOutput;
  'working/state': WorkingView;
  'working/pin': WorkingView;
  'working/evict': WorkingView;
  'working/checkpoint': WorkingView & { message: string };
  'working/clear': WorkingView & { message: string };
  'overview/get': Overview;
  'context/preview': GetRelevantContextOutput;
  'editor/selection': { text: string | null };
  'editor/run': { done: true };
}

export type PanelMethod = keyof typeof panelParamSchemas;
// Indexing PanelResults by every method makes a method without a declared result a type error here.
export type ParamsOf<M extends PanelMethod> = z.infer<(typeof panelParamSchemas)[M]>;
export type ResultOf<M extends PanelMethod> = PanelResults[M];

/** Core error codes plus the ones only the panel boundary produces. */
export type PanelErrorCode =
  MemoryErrorCode | 'UNKNOWN_METHOD' | 'INVALID_REQUEST' | 'TRANSPORT_ERROR' | 'INTERNAL_ERROR';

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

export type ResponseMessage =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: PanelError };

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
