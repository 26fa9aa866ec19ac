import type { TurnFacts } from '../../core/domain/dialogTurn.ts';
import type { RankingFacts } from '../../core/domain/rankingFacts.ts';
import type { ChangeOutcome, ChangeRequest, ForgetOutcome } from '../../core/domain/memoryChange.ts';
import type {
  AccessLogEntry,
  MemoryRecord,
  SessionRecord,
  StoredEmbedding,
  WorkingItemRecord,
} from '../../core/domain/records.ts';
import type {
  AdjacentMemories,
  DeletionReceipt,
  LexicalHit,
  LexicalQuery,
  HardDeleteReason,
  ListQuery,
  ListResult,
  MemoryFilter,
  MemoryStore,
  StoreHealth,
  StoreUserStats,
  LexicalSearch,
  SessionWithItems,
  TermStatistics,
  VectorHit,
  VectorQuery,
  WorkingChange,
} from '../../core/ports/memoryStore.ts';
import type { Outbox } from './outbox.ts';
import type { OutboxOp } from './outboxOps.ts';
import { RemoteLink } from './remoteLink.ts';
import { changeInReplica } from './replicaChange.ts';
import type { ApplyResult } from './remoteApply.ts';
import { isUnreachable } from './unreachable.ts';
import type { DuplicateCandidate, DuplicateGuard, GuardedInsert } from '../../core/ports/duplicateGuard.ts';

export interface ResilientStoreOptions {
  /** The store of record (Firebolt). */
  remote: MemoryStore;
  /** The local replica (SQLite in the data directory): every write lands here first. */
  local: MemoryStore;
  outbox: Outbox;
  /** Replay backoff while the remote is unreachable; defaults 250 ms doubling to 15 s. */
  replay?: { baseDelayMs: number; maxDelayMs: number };
  /** A write the remote rejects (not an outage) this many times is set aside; default 3. */
  rejectAfterAttempts?: number;
  /** Shown in health output. */
  replicaDescription?: string;
}

/**
 * Never loses an acknowledged write while Firebolt is away. Each write is applied to the local
 * replica, appended to the durable outbox, then pushed to Firebolt in outbox order; the write
 * is acknowledged once it is in the replica and the outbox, whether or not the push worked.
 * When Firebolt is unreachable (or the outbox still holds writes it lacks) reads come from the
 * replica, health() says 'degraded', and a background replayer drains the outbox with backoff;
 * once it is empty reads go back to Firebolt.
 */
export class ResilientStore implements MemoryStore {
  readonly kind: string;
  readonly #remote: MemoryStore;
  readonly #local: MemoryStore;
  readonly #outbox: Outbox;
  readonly #replicaDescription: string;
  readonly #link: RemoteLink;

  constructor(options: ResilientStoreOptions) {
    this.kind = options.remote.kind;
    this.#remote = options.remote;
    this.#local = options.local;
    this.#outbox = options.outbox;
    this.#replicaDescription = options.replicaDescription ?? 'local replica';
    this.#link = new RemoteLink({
      remote: options.remote,
      local: options.local,
      outbox: options.outbox,
      replay: options.replay ?? { baseDelayMs: 250, maxDelayMs: 15_000 },
      rejectAfterAttempts: options.rejectAfterAttempts ?? 3,
    });
  }

  /** True while reads are served by Firebolt. */
  get online(): boolean {
    return this.#link.online;
  }

  /** Writes acknowledged but not yet in Firebolt. */
  pendingWrites(): number {
    return this.#outbox.pending();
  }

  async open(): Promise<void> {
    await this.#local.open();
    await this.#outbox.open();
    try {
      await this.#link.open();
    } catch (error) {
      this.#outbox.close();
      await this.#local.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#link.stop();
    await this.#remote.close();
    await this.#local.close();
    this.#outbox.close();
  }

  health(): Promise<StoreHealth> {
    return this.#link.health(this.kind, this.#replicaDescription);
  }

  // Reads: Firebolt when it is reachable and has every acknowledged write, else the replica.

  async #read<T>(read: (store: MemoryStore) => Promise<T>): Promise<T> {
    if (this.#link.online && this.#outbox.pending() === 0) {
      try {
        return await read(this.#remote);
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        this.#link.goOffline(error);
      }
    } else if (this.#link.online) {
      this.#link.scheduleReplay(0);
    }
    return read(this.#local);
  }

  getSession(sessionId: string): Promise<SessionRecord | null> {
    return this.#read((store) => store.getSession(sessionId));
  }
  listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]> {
    return this.#read((store) => store.listWorkingItems(sessionId));
  }
  getSessionWithItems(sessionId: string): Promise<SessionWithItems | null> {
    return this.#read((store) => store.getSessionWithItems(sessionId));
  }
  listSessions(userId: string): Promise<SessionRecord[]> {
    return this.#read((store) => store.listSessions(userId));
  }
  getMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    return this.#read((store) => store.getMemories(userId, memoryIds));
  }
  listMemories(query: ListQuery): Promise<ListResult> {
    return this.#read((store) => store.listMemories(query));
  }
  searchLexical(query: LexicalQuery): Promise<LexicalHit[]> {
    return this.#read((store) => store.searchLexical(query));
  }
  termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics> {
    return this.#read((store) => store.termStatistics(userId, terms));
  }
  searchLexicalWithStatistics(query: LexicalQuery, terms: readonly string[]): Promise<LexicalSearch> {
    return this.#read((store) => store.searchLexicalWithStatistics(query, terms));
  }
  async searchVector(query: VectorQuery): Promise<VectorHit[]> {
    let local = false;
    const hits = await this.#read((store) => {
      local = store === this.#local;
      return store.searchVector(query);
    });
    // retrieval_breakdown.vector_method carries this, so a recall says it ran on the replica.
    return local ? hits.map((hit) => ({ ...hit, method: `local-replica:${hit.method}` })) : hits;
  }
  getEmbeddings(userId: string, memoryIds: readonly string[]): Promise<Map<string, StoredEmbedding>> {
    return this.#read((store) => store.getEmbeddings(userId, memoryIds));
  }
  adjacentMemories(
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
    maxGapMs: number,
  ): Promise<Map<string, AdjacentMemories>> {
    return this.#read((store) => store.adjacentMemories(filter, memoryIds, radius, maxGapMs));
  }
  duplicateCandidates(query: LexicalQuery): Promise<DuplicateCandidate[]> {
    return this.#read((store) => store.duplicateCandidates(query));
  }
  turnFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, TurnFacts>> {
    return this.#read((store) => store.turnFacts(userId, memoryIds));
  }
  rankingFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, RankingFacts>> {
    return this.#read((store) => store.rankingFacts(userId, memoryIds));
  }
  listUnembedded(userId: string | null, model: string, limit: number): Promise<MemoryRecord[]> {
    return this.#read((store) => store.listUnembedded(userId, model, limit));
  }
  listAccessLog(userId: string, offset: number, limit: number): Promise<AccessLogEntry[]> {
    return this.#read((store) => store.listAccessLog(userId, offset, limit));
  }
  stats(userId: string): Promise<StoreUserStats> {
    return this.#read((store) => store.stats(userId));
  }
  async changeToken(): Promise<string> {
    let source = 'remote';
    const token = await this.#read((store) => {
      source = store === this.#local ? 'local' : 'remote';
      return store.changeToken();
    });
    return `${source}:${token}:${this.#outbox.pending()}`;
  }

  // Writes: replica, outbox, then Firebolt in outbox order.

  /**
   * The local apply validates the write (and throws, enqueueing nothing, if it is invalid). `op`
   * may depend on the local result: null queues nothing. `answer` says whose result the caller gets.
   */
  #write<T extends ApplyResult>(
    op: OutboxOp | ((localResult: T) => OutboxOp | null),
    applyLocal: () => Promise<T>,
    answer: 'remote' | 'local' = 'remote',
  ): Promise<T> {
    return this.#link.serial(async () => {
      const localResult = await applyLocal();
      const queued = typeof op === 'function' ? op(localResult) : op;
      if (queued === null) return localResult;
      const seq = await this.#outbox.enqueue(queued);
      if (!this.#link.online) {
        this.#link.scheduleReplay();
        return localResult;
      }
      const results = await this.#link.drain();
      return answer === 'remote' && results.has(seq) ? (results.get(seq) as T) : localResult;
    });
  }

  insertMemory(memory: MemoryRecord, embedding: StoredEmbedding | null): Promise<void> {
    return this.#write({ op: 'insertMemory', memory, embedding }, () => this.#local.insertMemory(memory, embedding));
  }

  /**
   * The replica decides, in its own write: every process on this data directory writes there
   * first, so a duplicate written meanwhile by any of them is found. Only an insert that happened
   * is queued for Firebolt, as a plain insert (the decision is made).
   */
  insertUnlessDuplicate(
    memory: MemoryRecord,
    embedding: StoredEmbedding | null,
    guard: DuplicateGuard,
  ): Promise<GuardedInsert> {
    return this.#write(
      (outcome) => (outcome.status === 'inserted' ? { op: 'insertMemory', memory, embedding } : null),
      () => this.#local.insertUnlessDuplicate(memory, embedding, guard),
      'local',
    );
  }

  /** The replica's mark: it is the replica that checks what was written since. */
  duplicateMark(userId: string): Promise<string> {
    return this.#local.duplicateMark(userId);
  }

  /**
   * The replica decides (version, forgotten) and applies the change; only an applied change is
   * queued, as the same intent, for Firebolt. The answer is the replica's, which is what reads see.
   */
  async changeMemory(request: ChangeRequest): Promise<ChangeOutcome> {
    return this.#write(
      (outcome) => (outcome.status === 'applied' ? { op: 'changeMemory', request } : null),
      () => changeInReplica(this.#local, () => (this.#link.online ? this.#remote : null), request),
      'local',
    );
  }

  forgetMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome> {
    return this.#write(
      { op: 'forgetMemories', userId, memoryIds, at },
      () => this.#local.forgetMemories(userId, memoryIds, at),
      'local',
    );
  }

  restoreMemories(userId: string, memoryIds: readonly string[], at: string): Promise<ForgetOutcome> {
    return this.#write(
      { op: 'restoreMemories', userId, memoryIds, at },
      () => this.#local.restoreMemories(userId, memoryIds, at),
      'local',
    );
  }

  hardDeleteMemory(userId: string, memoryId: string, reason: HardDeleteReason = 'erasure'): Promise<boolean> {
    return this.#write({ op: 'hardDeleteMemory', userId, memoryId, reason }, async () => {
      const removed = await this.#local.hardDeleteMemory(userId, memoryId, reason);
      await this.#outbox.erase(userId, memoryId);
      return removed;
    });
  }

  deleteUser(userId: string): Promise<DeletionReceipt> {
    return this.#write({ op: 'deleteUser', userId }, async () => {
      const receipt = await this.#local.deleteUser(userId);
      await this.#outbox.erase(userId, null);
      return receipt;
    });
  }

  commitWorking(change: WorkingChange): Promise<void> {
    return this.#write({ op: 'commitWorking', change }, () => this.#local.commitWorking(change));
  }

  deleteSession(userId: string, sessionId: string): Promise<boolean> {
    return this.#write({ op: 'deleteSession', userId, sessionId }, () => this.#local.deleteSession(userId, sessionId));
  }

  async recordAccess(entries: readonly AccessLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    return this.#write({ op: 'recordAccess', entries }, () => this.#local.recordAccess(entries));
  }
}
