import type {
  AccessLogEntry,
  MemoryRecord,
  SessionRecord,
  StoredEmbedding,
  WorkingItemRecord,
} from '../domain/records.ts';
import type { ChangeOutcome, ChangeRequest, ForgetOutcome } from '../domain/memoryChange.ts';
import type { TurnFacts } from '../domain/dialogTurn.ts';
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { MemoryLayer } from '../domain/layers.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';
import type { DuplicateCandidate, DuplicateGuard, GuardedInsert } from './duplicateGuard.ts';

/**
 * The storage port. Every backend (embedded SQLite, Firebolt) implements it and passes
 * the shared contract suite in test/contract/. All reads and writes are scoped by user_id:
 * an id of another user behaves exactly like an id that does not exist.
 */
export interface MemoryStore {
  /** Short name shown in health output: 'sqlite', 'firebolt-core', 'firebolt-cloud'. */
  readonly kind: string;
  /** Opens connections, runs idempotent migrations, builds in-memory indexes. */
  open(): Promise<void>;
  /**
   * Optional: loads what the first search of `userId` needs (its in-memory indexes) ahead of it,
   * in slices that yield, so a long-running process can prepare while nobody waits.
   */
  warmUp?(userId: string): Promise<void>;
  close(): Promise<void>;
  health(): Promise<StoreHealth>;

  // Sessions and working memory
  getSession(sessionId: string): Promise<SessionRecord | null>;
  /**
   * Applies one working-memory change atomically: the session row and item upserts/deletes
   * either all land or none do, so a crash never leaves token totals out of step with items.
   */
  commitWorking(change: WorkingChange): Promise<void>;
  listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]>;
  /**
   * getSession and listWorkingItems in one read: the session and its items from one state of the
   * store (null when there is no such session). A working-memory call needs both, and each read
   * has its own cost (SQLite: the check for other processes' commits).
   */
  getSessionWithItems(sessionId: string): Promise<SessionWithItems | null>;
  listSessions(userId: string): Promise<SessionRecord[]>;
  /**
   * Removes this user's session and its working items in one write; false when the user has no
   * such session (another user's id behaves like a missing one). Takes back a session that a
   * failed import created.
   */
  deleteSession(userId: string, sessionId: string): Promise<boolean>;

  // Long-term memories
  /** Stores a new memory (version 1); an id that exists, or existed and was erased, is refused. */
  insertMemory(memory: MemoryRecord, embedding: StoredEmbedding | null): Promise<void>;
  /**
   * insertMemory with the duplicate check in the same write (duplicateGuard.ts): when a memory
   * written since `guard.mark` duplicates this one, nothing is stored and that memory is returned.
   */
  insertUnlessDuplicate(
    memory: MemoryRecord,
    embedding: StoredEmbedding | null,
    guard: DuplicateGuard,
  ): Promise<GuardedInsert>;
  /** A position in the user's write history, read before a duplicate search (DuplicateGuard.mark). */
  duplicateMark(userId: string): Promise<string>;
  /**
   * A duplicate search's candidates: the memories searchLexical finds for `query`, in its order,
   * each as the duplicate rule reads it (duplicateCandidateOf of its row), never the whole row.
   */
  duplicateCandidates(query: LexicalQuery): Promise<DuplicateCandidate[]>;
  /**
   * Applies one change to the row as it is at the moment of the write, in one transaction
   * (memoryChange.ts says how): concurrent changes of one memory compose instead of overwriting
   * each other, a stale `expected_version` is a CONFLICT, and a forgotten memory takes no change.
   * Never creates a row.
   */
  changeMemory(request: ChangeRequest): Promise<ChangeOutcome>;
  /** Soft-deletes these memories of the user in one write; each forgotten one's version goes up. */
  forgetMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome>;
  /** The undo of forgetMemories, the only change that clears deleted_at. */
  restoreMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome>;
  /** Rows of this user with these ids, deleted ones included; missing ids are absent from the result. */
  getMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]>;
  listMemories(query: ListQuery): Promise<ListResult>;
  /**
   * Removes the row, its embedding, its index entries and its access-log rows. An erasure (the
   * default) also remembers the id, so no late writer can store it again; 'undo' takes back an
   * insert of this same call that nobody has seen (a failed import), so a retry can store the id.
   */
  hardDeleteMemory(userId: string, memoryId: string, reason?: HardDeleteReason): Promise<boolean>;
  /** Removes everything the user has in this store; returns what was removed. */
  deleteUser(userId: string): Promise<DeletionReceipt>;

  // Retrieval candidates; scoring and fusion live in the core.
  searchLexical(query: LexicalQuery): Promise<LexicalHit[]>;
  searchVector(query: VectorQuery): Promise<VectorHit[]>;
  /**
   * BM25's corpus statistics for these index terms over the user's live memories (the same corpus
   * searchLexical scores against): how many documents, and how many contain each term. Recall
   * turns them into the absolute relevance scale (how much of the query's information a memory covers).
   */
  termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics>;
  /**
   * searchLexical(query) and termStatistics(query.filter.user_id, terms) together, as recall asks
   * for both: on SQLite one read (one check for other processes' commits, one snapshot) instead of two.
   */
  searchLexicalWithStatistics(query: LexicalQuery, terms: readonly string[]): Promise<LexicalSearch>;
  getEmbeddings(userId: string, memoryIds: readonly string[]): Promise<Map<string, StoredEmbedding>>;
  /**
   * For each id, the live memories stored just before and after it by the same user that pass
   * the filter, in creation order: up to `radius` on each side, nearest first
   * (`{ before: [prev, prev-of-prev], after: [next, …] }`). A window never crosses a
   * conversation boundary: the walk stops at a memory whose source_session differs from the
   * one before it, or whose time (event_time, else created_at) is more than `maxGapMs` away.
   * Unknown ids are absent.
   */
  adjacentMemories(
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
    maxGapMs: number,
  ): Promise<Map<string, AdjacentMemories>>;
  /**
   * The dialog-turn facts (dialogTurn.ts: conversation key, question flag) of the user's live
   * memories with these ids, from compact columns the store keeps beside its indexes, never from a
   * full row: neighbour expansion decides on them and reads full rows only for the memories it
   * returns. Forgotten, erased, unknown and other users' ids are absent.
   */
  turnFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, TurnFacts>>;
  /**
   * The ranking facts (rankingFacts.ts: what recall scores a candidate on, no text) of the user's
   * live memories with these ids, from compact per-memory columns the store keeps beside its
   * indexes: recall scores candidates on them and reads full rows only for the memories it returns.
   * Each equals rankingFactsOf(the memory's row). Forgotten, erased, unknown and other users' ids are absent.
   */
  rankingFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, RankingFacts>>;
  /** Live memories whose embedding is missing or from another model, for lazy re-embedding. */
  listUnembedded(userId: string | null, model: string, limit: number): Promise<MemoryRecord[]>;

  /** Appends access-log rows and bumps access_count / last_accessed of the memories read. */
  recordAccess(entries: readonly AccessLogEntry[]): Promise<void>;
  /** A page of the user's access log, oldest first (accessed_at, then access_id); for copying a store. */
  listAccessLog(userId: string, offset: number, limit: number): Promise<AccessLogEntry[]>;
  stats(userId: string): Promise<StoreUserStats>;
  /** Changes when any process commits to the store; cheap to poll. */
  changeToken(): Promise<string>;
  /**
   * Optional: changes only when another process commits. This process's own writes are announced
   * as core events when they matter to a view, and many (re-embedding, access counts) are not;
   * a watcher comparing `changeToken` would take those for another writer's change.
   */
  foreignChangeToken?(): Promise<string>;
}

export interface StoreHealth {
  status: 'healthy' | 'degraded' | 'unhealthy';
  latency_ms: number;
  detail: string;
}

export interface WorkingChange {
  session: SessionRecord;
  upsert: readonly WorkingItemRecord[];
  delete: readonly string[];
}

/** Filters every search and listing understands. Absent fields do not filter. */
export interface MemoryFilter {
  user_id: string;
  /** When set, only memories of this project or of no project (user-wide). */
  project_id?: string | null;
  /** When set, only memories in one of these layer scopes; absent means every layer of the partition. */
  scopes?: readonly ScopeRef[];
  categories?: readonly MemoryCategory[];
  subtypes?: readonly string[];
  /** Any-of, exact. */
  entities?: readonly string[];
  /** Any-of, exact. */
  tags?: readonly string[];
  /** Inclusive ISO bounds on event_time, falling back to created_at when a memory has no event_time. */
  after?: string;
  before?: string;
  min_confidence?: number;
  pinned?: boolean;
  source_types?: readonly string[];
  /** 'live' (default), 'deleted' (trash) or 'all'. */
  state?: 'live' | 'deleted' | 'all';
  /** Memories superseded by another are hidden unless true. */
  include_superseded?: boolean;
}

/** One layer scope inside a partition, e.g. { layer: 'agent', scope_id: 'copilot' }. */
export interface ScopeRef {
  layer: MemoryLayer;
  scope_id: string;
}

export interface ListQuery {
  filter: MemoryFilter;
  sort: 'recency' | 'importance' | 'access_count' | 'created';
  offset: number;
  limit: number;
}

export interface ListResult {
  items: MemoryRecord[];
  total: number;
}

export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface LexicalQuery {
  filter: MemoryFilter;
  terms: readonly WeightedTerm[];
  limit: number;
  /**
   * Query words to look for inside the hits' longer words (core/retrieval/wordParts.ts): each hit
   * reports in `part_matches` the ones that begin or end a longer plain word of its document
   * (`isWordPart`). They do not score and find no memory by themselves.
   */
  parts?: readonly string[];
}

/** A query word (`part`) that begins or ends a longer word (`term`) of a hit's document: both index terms. */
export interface PartMatch {
  part: string;
  term: string;
}

export interface LexicalHit {
  memory_id: string;
  /** BM25-style score, unbounded, comparable within one query. */
  score: number;
  matched_terms: string[];
  /** With `LexicalQuery.parts`: the parts in this hit's longer words, each once. */
  part_matches?: PartMatch[];
}

export interface TermStatistics {
  documents: number;
  /** term -> documents containing it; terms no document contains may be absent (read as 0). */
  frequencies: Map<string, number>;
}

/** What MemoryStore.getSessionWithItems answers: the items in sequence order, as listWorkingItems lists them. */
export interface SessionWithItems {
  session: SessionRecord;
  items: WorkingItemRecord[];
}

/** What MemoryStore.searchLexicalWithStatistics answers. */
export interface LexicalSearch {
  hits: LexicalHit[];
  statistics: TermStatistics;
}

export interface VectorQuery {
  filter: MemoryFilter;
  vector: Float32Array;
  /** Only embeddings of this model are compared. */
  model: string;
  limit: number;
}

export interface VectorHit {
  memory_id: string;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
  /** How the store found it: 'exact' scan or an approximate index name; surfaces in retrieval_breakdown. */
  method: string;
}

export interface AdjacentMemories {
  before: string[];
  after: string[];
}

export interface StoreUserStats {
  memories: number;
  deleted: number;
  pinned: number;
  by_category: Record<string, number>;
  by_subtype: Record<string, number>;
  sessions: number;
  working_items: number;
  access_log_entries: number;
  embedded: number;
  oldest: string | null;
  newest: string | null;
  storage_bytes: number | null;
}

export interface DeletionReceipt {
  memories_deleted: number;
  sessions_deleted: number;
  working_items_deleted: number;
  access_log_deleted: number;
}

/** Why a row is removed: an erasure is remembered by id; an undo of an unseen insert is not. */
export type HardDeleteReason = 'erasure' | 'undo';
