import type { Logger } from './ports/logger.ts';
import type { AccessLogEntry } from './domain/records.ts';
import type { MemoryStore } from './ports/memoryStore.ts';

const FLUSH_DELAY_MS = 20;
/** Past this many waiting entries the flush runs at the next turn of the event loop instead of after the delay. */
const MAX_BATCH = 500;

/**
 * Writes the access log (seed 000 §6.2) off the request path: recalls queue their entries and
 * one background transaction writes every entry queued since the last flush. A recall then
 * costs no write, and a busy server writes many recalls' entries in one commit.
 * Entries are lost only if the process dies within FLUSH_DELAY_MS of the recall; memories are not.
 */
export class AccessRecorder {
  private readonly store: MemoryStore;
  private queue: AccessLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  lastError: { message: string; at: string } | null = null;

  private readonly log: Logger;

  constructor(store: MemoryStore, log: Logger) {
    this.store = store;
    this.log = log;
  }

  record(entries: readonly AccessLogEntry[]): void {
    if (entries.length === 0) return;
    this.queue.push(...entries);
    // Never written inside the call that queued it: the write waits for the event loop to come
    // round, which is between requests on a real transport.
    if (this.queue.length >= MAX_BATCH) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      if (this.immediate === undefined) this.immediate = setImmediate(() => void this.flush());
      return;
    }
    if (this.timer === undefined && this.immediate === undefined) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Writes everything queued so far; resolves when it is stored. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    const batch = this.queue;
    this.queue = [];
    this.inFlight = this.inFlight.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.store.recordAccess(batch);
      } catch (error) {
        // Kept for the next flush and reported in stats; a lost access count must not fail a recall.
        this.queue.unshift(...batch);
        this.lastError = {
          message: error instanceof Error ? error.message : String(error),
          at: new Date().toISOString(),
        };
        this.log.warn(`writing the access log failed; will retry: ${this.lastError.message}`);
      }
    });
    return this.inFlight;
  }
}
