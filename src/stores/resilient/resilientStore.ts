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
  TermStatistics,
  VectorHit,
  VectorQuery,
  WorkingChange,
} from '../../core/ports/memoryStore.ts';
import type { Outbox } from './outbox.ts';
import type { OutboxOp } from './outboxOps.ts';
import { applyToRemote } from './remoteApply.ts';
import type { ApplyResult } from './remoteApply.ts';
import { isUnreachable } from './unreachable.ts';
import type { DuplicateGuard, GuardedInsert } from '../../core/ports/duplicateGuard.ts';

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

const DRAIN_BATCH = 50;

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
  readonly #replay: { baseDelayMs: number; maxDelayMs: number };
  readonly #rejectAfter: number;
  readonly #replicaDescription: string;
  #remoteOpen = false;
  #online = false;
  #offlineSince: string | null = null;
  #lastError: string | null = null;
  #lastRejection: string | null = null;
  #delayMs: number;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  /** Writes and drains run one at a time, so the outbox order is the apply order. */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: ResilientStoreOptions) {
    this.kind = options.remote.kind;
    this.#remote = options.remote;
    this.#local = options.local;
    this.#outbox = options.outbox;
    this.#replay = options.replay ?? { baseDelayMs: 250, maxDelayMs: 15_000 };
    this.#rejectAfter = options.rejectAfterAttempts ?? 3;
    this.#replicaDescription = options.replicaDescription ?? 'local replica';
    this.#delayMs = this.#replay.baseDelayMs;
  }

  /** True while reads are served by Firebolt. */
  get online(): boolean {
    return this.#online;
  }

  /** Writes acknowledged but not yet in Firebolt. */
  pendingWrites(): number {
    return this.#outbox.pending();
  }

  async open(): Promise<void> {
    this.#closed = false;
    await this.#local.open();
    await this.#outbox.open();
    try {
      await this.#remote.open();
      this.#remoteOpen = true;
      this.#online = true;
    } catch (error) {
      if (!isUnreachable(error)) {
        // Bad credentials or configuration are not an outage: say so now rather than queue forever.
        this.#outbox.close();
        await this.#local.close();
        throw error;
      }
      this.#goOffline(error);
    }
    if (this.#outbox.pending() > 0) this.#scheduleReplay(0);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#chain.catch(() => undefined);
    await this.#remote.close();
    await this.#local.close();
    this.#outbox.close();
  }

  async health(): Promise<StoreHealth> {
    const started = performance.now();
    const pending = this.#outbox.pending();
    const rejected = this.#outbox.rejected();
    const rejectedNote =
      rejected > 0
        ? `; ${rejected} write(s) Firebolt rejected are kept in ${this.#outbox.path} (last: ${this.#lastRejection ?? 'see outbox_rejected'})`
        : '';
    if (this.#online) {
      const remote = await this.#remote.health();
      if (remote.status !== 'unhealthy' && pending === 0) {
        return {
          ...remote,
          status: rejected > 0 ? 'degraded' : remote.status,
          detail: `${remote.detail}; writes mirrored to ${this.#replicaDescription}${rejectedNote}`,
        };
      }
      if (remote.status === 'unhealthy') this.#goOffline(new Error(remote.detail));
      else this.#scheduleReplay(0);
    }
    const reason = this.#online
      ? 'Firebolt is reachable and catching up'
      : `Firebolt unreachable since ${this.#offlineSince ?? 'start'} (${this.#lastError ?? 'unknown error'})`;
    return {
      status: 'degraded',
      latency_ms: performance.now() - started,
      detail: `${this.kind}: ${reason}; reads from ${this.#replicaDescription}; ${pending} acknowledged write(s) queued in the outbox, replayed in order when it returns${rejectedNote}`,
    };
  }

  // Reads: Firebolt when it is reachable and has every acknowledged write, else the replica.

  async #read<T>(read: (store: MemoryStore) => Promise<T>): Promise<T> {
    if (this.#online && this.#outbox.pending() === 0) {
      try {
        return await read(this.#remote);
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        this.#goOffline(error);
      }
    } else if (this.#online) {
      this.#scheduleReplay(0);
    }
    return read(this.#local);
  }

  getSession(sessionId: string): Promise<SessionRecord | null> {
    return this.#read((store) => store.getSession(sessionId));
  }
  listWorkingItems(sessionId: string): Promise<WorkingItemRecord[]> {
    return this.#read((store) => store.listWorkingItems(sessionId));
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

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(work, work);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /**
   * The local apply validates the write (and throws, enqueueing nothing, if it is invalid). `op`
   * may depend on the local result: null queues nothing. `answer` says whose result the caller gets.
   */
  #write<T extends ApplyResult>(
    op: OutboxOp | ((localResult: T) => OutboxOp | null),
    applyLocal: () => Promise<T>,
    answer: 'remote' | 'local' = 'remote',
  ): Promise<T> {
    return this.#serial(async () => {
      const localResult = await applyLocal();
      const queued = typeof op === 'function' ? op(localResult) : op;
      if (queued === null) return localResult;
      const seq = await this.#outbox.enqueue(queued);
      if (!this.#online) {
        this.#scheduleReplay();
        return localResult;
      }
      const results = await this.#drain();
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
      () => this.#changeLocal(request),
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

  /** A memory Firebolt has but the replica lacks (written before this replica existed) is copied in first. */
  async #changeLocal(request: ChangeRequest): Promise<ChangeOutcome> {
    const outcome = await this.#local.changeMemory({ ...request, if_forgotten: 'drop' });
    if (outcome.status === 'applied') return outcome;
    if (outcome.reason === 'missing' && this.#online) {
      const [existing] = await this.#remote.getMemories(request.user_id, [request.memory_id]);
      if (existing) {
        const stored =
          (await this.#remote.getEmbeddings(existing.user_id, [existing.memory_id])).get(existing.memory_id) ?? null;
        await this.#local.insertMemory(existing, stored);
        return this.#local.changeMemory(request);
      }
    }
    // Asked again with the caller's rule, so a user's edit gets its MEMORY_NOT_FOUND.
    return request.if_forgotten === 'drop' ? outcome : this.#local.changeMemory(request);
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

  // Replay

  /**
   * Pushes outbox entries to Firebolt in order until the outbox is empty, Firebolt is
   * unreachable, or another process holds the replay lease. Runs inside #serial.
   */
  async #drain(): Promise<Map<number, ApplyResult>> {
    const results = new Map<number, ApplyResult>();
    if (!(await this.#outbox.claimLease())) return results;
    for (;;) {
      const batch = this.#outbox.peek(DRAIN_BATCH);
      if (batch.length === 0) return results;
      for (const entry of batch) {
        try {
          results.set(entry.seq, await applyToRemote(this.#remote, this.#local, entry.op, entry.attempts > 0));
          await this.#outbox.remove(entry.seq);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const attempts = await this.#outbox.recordAttempt(entry.seq, message);
          if (isUnreachable(error)) {
            this.#goOffline(error);
            return results;
          }
          if (attempts < this.#rejectAfter) {
            this.#lastError = message;
            this.#scheduleReplay();
            return results;
          }
          this.#lastRejection = `${entry.op.op} #${entry.seq}: ${message}`;
          await this.#outbox.reject(entry.seq, message);
        }
      }
      await this.#outbox.claimLease();
    }
  }

  #goOffline(error: unknown): void {
    if (this.#online || this.#offlineSince === null) this.#offlineSince = new Date().toISOString();
    this.#online = false;
    this.#lastError = error instanceof Error ? error.message : String(error);
    this.#scheduleReplay();
  }

  #scheduleReplay(delayMs: number = this.#delayMs): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#serial(() => this.#replayOnce());
    }, delayMs);
    // The replayer alone never keeps a process alive; a serving process has its listener.
    this.#timer.unref();
  }

  /** One replay round: reconnect if needed, drain; back off while Firebolt stays away. */
  async #replayOnce(): Promise<void> {
    if (this.#closed) return;
    try {
      if (!this.#remoteOpen) {
        await this.#remote.open();
        this.#remoteOpen = true;
      }
      this.#online = true;
      await this.#drain();
    } catch (error) {
      if (!isUnreachable(error)) this.#lastError = error instanceof Error ? error.message : String(error);
      this.#goOffline(error);
    }
    if (this.#online && this.#outbox.pending() === 0) {
      this.#offlineSince = null;
      this.#delayMs = this.#replay.baseDelayMs;
      return;
    }
    this.#delayMs = Math.min(this.#delayMs * 2, this.#replay.maxDelayMs);
    this.#scheduleReplay();
  }
}
