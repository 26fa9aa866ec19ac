import { containsSecret } from '../safety/secretDetector.ts';

/**
 * Where editor context goes: one slot per source (active editor, diagnostics, terminal…), each
 * debounced so a burst of events costs one write, deduplicated so an unchanged value costs none, and
 * screened by the secret detector as the last line of defence before anything reaches the store.
 */

export interface CaptureWriter {
  /** Replace the slot's item with this content, or remove it when `content` is null. */
  write(slot: string, content: string | null): Promise<void>;
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface CaptureSinkOptions {
  writer: CaptureWriter;
  delayMs: number;
  timers?: Timers;
  /** Called with the slot and the reason when something is refused or a write fails. */
  onSkip?: (slot: string, reason: string) => void;
  onError?: (slot: string, error: unknown) => void;
}

const realTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class CaptureSink {
  private readonly options: CaptureSinkOptions;
  private readonly timers: Timers;
  private readonly pending = new Map<string, { content: string | null; handle: unknown }>();
  private readonly written = new Map<string, string | null>();
  private chain: Promise<void> = Promise.resolve();
  private disposed = false;
  private holds = 0;

  constructor(options: CaptureSinkOptions) {
    this.options = options;
    this.timers = options.timers ?? realTimers;
  }

  submit(slot: string, content: string | null): void {
    if (this.disposed) return;
    const existing = this.pending.get(slot);
    if (existing) this.timers.clear(existing.handle);
    const handle = this.timers.set(() => this.flushSlot(slot), this.options.delayMs);
    this.pending.set(slot, { content, handle });
  }

  /** Writes everything pending now (tests, and before a checkpoint so it includes the latest context). */
  async flush(): Promise<void> {
    if (this.holds > 0) return this.chain;
    for (const [slot, entry] of [...this.pending]) {
      this.timers.clear(entry.handle);
      this.flushSlot(slot);
    }
    await this.chain;
  }

  /**
   * Keeps every write pending until the returned release is called (a long store operation such as
   * a copy runs without competing writes); submits during the hold still debounce and deduplicate.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0) void this.flush();
    };
  }

  /** Forget what was written so the next submit of each slot writes again (after the session was cleared). */
  reset(): void {
    this.written.clear();
  }

  /** Slots whose last write put content into working memory. */
  writtenSlots(): string[] {
    return [...this.written].filter(([, content]) => content !== null).map(([slot]) => slot);
  }

  /** The slot's item is gone (evicted, checkpointed, cleared by an agent): the next submit writes it again. */
  forget(slot: string): void {
    this.written.delete(slot);
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.pending.values()) this.timers.clear(entry.handle);
    this.pending.clear();
  }

  private flushSlot(slot: string): void {
    const entry = this.pending.get(slot);
    if (!entry || this.holds > 0) return;
    this.pending.delete(slot);
    const { content } = entry;
    if (content !== null && containsSecret(content)) {
      this.options.onSkip?.(slot, 'the secret detector flagged the content');
      return;
    }
    if (this.written.has(slot) ? this.written.get(slot) === content : content === null) return;
    // Writes are serialised so an older value can never land after a newer one.
    this.chain = this.chain.then(async () => {
      try {
        await this.options.writer.write(slot, content);
        this.written.set(slot, content);
      } catch (error) {
        this.options.onError?.(slot, error);
      }
    });
  }
}
