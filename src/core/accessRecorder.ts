import type { Logger } from './ports/logger.ts';
import type { AccessLogEntry } from './domain/records.ts';
import type { MemoryStore } from './ports/memoryStore.ts';

const FLUSH_DELAY_MS = 20;
/** Past this many waiting entries the write starts at the next turn of the event loop instead of after the delay. */
const MAX_BATCH = 500;
/**
 * The most entries kept while the store refuses the writes (a full disk, a backend outage): about
 * 200 bytes each besides the query text, which a recall's entries share, so tens of MB. Past it the
 * oldest are dropped and counted: access counts are bookkeeping, and a memory process that grows
 * without bound while its store is down would fail the memories too.
 */
export const MAX_QUEUED_ACCESS_ENTRIES = 100_000;

/**
 * Writes the access log (seed 000 §6.2) off the request path: recalls queue their entries and
 * one background write stores every entry queued since the last one. A recall then costs no
 * write, and a busy server writes many recalls' entries in one commit.
 *
 * At most one write is in flight. Entries that arrive meanwhile wait in the queue and go together
 * in the next write, started as soon as the one in flight is stored: a chain of one write per
 * flush grew without bound under sustained load (the store's background lane commits one write
 * per few request transactions), holding 13,000 entries in 650 waiting writes after 40 s of
 * `npm run bench:load`. Entries are lost only if the process dies before the write that holds
 * them commits; memories are not.
 */
export class AccessRecorder {
  private readonly store: MemoryStore;
  private readonly log: Logger;
  private queue: AccessLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** The write in flight; it never rejects (a failure keeps its entries for the next write). */
  private writing: Promise<void> | null = null;
  lastError: { message: string; at: string } | null = null;
  /** Entries dropped, oldest first, because the store kept refusing writes past MAX_QUEUED_ACCESS_ENTRIES. */
  dropped = 0;

  constructor(store: MemoryStore, log: Logger) {
    this.store = store;
    this.log = log;
  }

  record(entries: readonly AccessLogEntry[]): void {
    if (entries.length === 0) return;
    this.queue.push(...entries);
    this.trimQueue();
    this.schedule();
  }

  /** Resolves once every entry queued before the call is stored (or its write failed and it waits for the next). */
  async flush(): Promise<void> {
    this.cancelSchedule();
    // The write in flight holds entries queued before it started; those queued since are in the
    // queue, or in a write that started after it (which took the whole queue).
    if (this.writing !== null) await this.writing;
    if (this.writing !== null) return this.writing;
    if (this.queue.length > 0) return this.startWrite();
  }

  /** Entries waiting for a write, in flight excluded (tests, stats). */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    // Never written inside the call that queued it: the write waits for the event loop to come
    // round, which is between requests on a real transport. While a write is in flight its end
    // starts the next one.
    if (this.writing !== null || this.immediate !== undefined) return;
    if (this.queue.length >= MAX_BATCH) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        if (this.writing === null && this.queue.length > 0) void this.startWrite();
      });
      return;
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.writing === null && this.queue.length > 0) void this.startWrite();
      }, FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  private cancelSchedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private startWrite(): Promise<void> {
    this.cancelSchedule();
    const batch = this.queue;
    this.queue = [];
    const writing = this.write(batch).then((stored) => {
      this.writing = null;
      // After a failure the next record or flush tries again: retrying on a timer while the store
      // is down would only repeat the warning.
      if (stored && this.queue.length > 0) this.schedule();
    });
    this.writing = writing;
    return writing;
  }

  private async write(batch: AccessLogEntry[]): Promise<boolean> {
    try {
      await this.store.recordAccess(batch);
      return true;
    } catch (error) {
      // Kept ahead of what came since, and reported; a lost access count must not fail a recall.
      this.queue = batch.concat(this.queue);
      this.trimQueue();
      this.lastError = {
        message: error instanceof Error ? error.message : String(error),
        at: new Date().toISOString(),
      };
      const dropped =
        this.dropped > 0
          ? ` (${this.dropped} oldest entries dropped so far, past ${MAX_QUEUED_ACCESS_ENTRIES} waiting)`
          : '';
      this.log.warn(`writing the access log failed; will retry: ${this.lastError.message}${dropped}`);
      return false;
    }
  }

  private trimQueue(): void {
    const excess = this.queue.length - MAX_QUEUED_ACCESS_ENTRIES;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.dropped += excess;
  }
}
