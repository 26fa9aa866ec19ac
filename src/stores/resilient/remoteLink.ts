import type { MemoryStore, StoreHealth } from '../../core/ports/memoryStore.ts';
import type { Outbox } from './outbox.ts';
import { applyToRemote } from './remoteApply.ts';
import type { ApplyResult } from './remoteApply.ts';
import { isUnreachable } from './unreachable.ts';

const DRAIN_BATCH = 50;

/**
 * The ResilientStore's link to Firebolt: whether it is reachable, and the replay of the outbox to
 * it — in outbox order, with backoff while it is away, setting aside a write it keeps rejecting.
 * Writes and drains run one at a time (serial), so the outbox order is the apply order.
 */
export class RemoteLink {
  readonly #remote: MemoryStore;
  readonly #local: MemoryStore;
  readonly #outbox: Outbox;
  readonly #replay: { baseDelayMs: number; maxDelayMs: number };
  readonly #rejectAfter: number;
  #remoteOpen = false;
  #online = false;
  #offlineSince: string | null = null;
  #lastError: string | null = null;
  #lastRejection: string | null = null;
  #delayMs: number;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: {
    remote: MemoryStore;
    local: MemoryStore;
    outbox: Outbox;
    replay: { baseDelayMs: number; maxDelayMs: number };
    rejectAfterAttempts: number;
  }) {
    this.#remote = options.remote;
    this.#local = options.local;
    this.#outbox = options.outbox;
    this.#replay = options.replay;
    this.#rejectAfter = options.rejectAfterAttempts;
    this.#delayMs = this.#replay.baseDelayMs;
  }

  /** True while reads are served by Firebolt. */
  get online(): boolean {
    return this.#online;
  }

  /** Opens Firebolt; unreachable is an outage (replayed later), any other failure is thrown. */
  async open(): Promise<void> {
    this.#closed = false;
    try {
      await this.#remote.open();
      this.#remoteOpen = true;
      this.#online = true;
    } catch (error) {
      // Bad credentials or configuration are not an outage: say so now rather than queue forever.
      if (!isUnreachable(error)) throw error;
      this.goOffline(error);
    }
    if (this.#outbox.pending() > 0) this.scheduleReplay(0);
  }

  /** Stops the replayer and waits for the write or drain under way. */
  async stop(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#chain.catch(() => undefined);
  }

  async health(kind: string, replicaDescription: string): Promise<StoreHealth> {
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
          detail: `${remote.detail}; writes mirrored to ${replicaDescription}${rejectedNote}`,
        };
      }
      if (remote.status === 'unhealthy') this.goOffline(new Error(remote.detail));
      else this.scheduleReplay(0);
    }
    const reason = this.#online
      ? 'Firebolt is reachable and catching up'
      : `Firebolt unreachable since ${this.#offlineSince ?? 'start'} (${this.#lastError ?? 'unknown error'})`;
    return {
      status: 'degraded',
      latency_ms: performance.now() - started,
      detail: `${kind}: ${reason}; reads from ${replicaDescription}; ${pending} acknowledged write(s) queued in the outbox, replayed in order when it returns${rejectedNote}`,
    };
  }

  serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(work, work);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Pushes outbox entries to Firebolt in order until the outbox is empty, Firebolt is
   * unreachable, or another process holds the replay lease. Runs inside #serial.
   */
  async drain(): Promise<Map<number, ApplyResult>> {
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
            this.goOffline(error);
            return results;
          }
          if (attempts < this.#rejectAfter) {
            this.#lastError = message;
            this.scheduleReplay();
            return results;
          }
          this.#lastRejection = `${entry.op.op} #${entry.seq}: ${message}`;
          await this.#outbox.reject(entry.seq, message);
        }
      }
      await this.#outbox.claimLease();
    }
  }

  goOffline(error: unknown): void {
    if (this.#online || this.#offlineSince === null) this.#offlineSince = new Date().toISOString();
    this.#online = false;
    this.#lastError = error instanceof Error ? error.message : String(error);
    this.scheduleReplay();
  }

  scheduleReplay(delayMs: number = this.#delayMs): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.serial(() => this.#replayOnce());
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
      await this.drain();
    } catch (error) {
      if (!isUnreachable(error)) this.#lastError = error instanceof Error ? error.message : String(error);
      this.goOffline(error);
    }
    if (this.#online && this.#outbox.pending() === 0) {
      this.#offlineSince = null;
      this.#delayMs = this.#replay.baseDelayMs;
      return;
    }
    this.#delayMs = Math.min(this.#delayMs * 2, this.#replay.maxDelayMs);
    this.scheduleReplay();
  }
}
