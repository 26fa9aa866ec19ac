import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { applyExtraction } from './applyExtraction.ts';
import type { MemoryExtractor } from './extractor.ts';
import { EXTRACTION_PENDING_TAG, type ExtractionJob, type ExtractionSink } from './pendingExtraction.ts';

export interface ExtractionQueueOptions {
  /** Extractions running at once (default 2): model calls are slow, but a local model is easily overloaded. */
  concurrency?: number;
  /** Attempts per memory in this process before it is left pending for resumePending (default 4). */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt up to maxDelayMs (defaults 2 s and 5 min). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Where failures are reported; stderr by default, because stdout may carry the MCP protocol. */
  log?: (message: string) => void;
}

export interface ExtractionStats {
  extractor: string;
  queued: number;
  running: number;
  waiting_retry: number;
  succeeded: number;
  /** Memories given up on in this process; they keep the pending tag and are retried by resumePending. */
  failed: number;
  retries: number;
  memories_written: number;
  raw_replaced: number;
  superseded: number;
  last_error: { memory_id: string; code: string; message: string; at: string } | null;
}

interface QueuedJob extends ExtractionJob {
  attempt: number;
}

/**
 * Runs extraction of promoted working-memory content off the request path (seed 003: "store raw
 * content, extract later"). The raw memory is already stored and tagged extraction:pending, so a
 * crash, a closed editor or a provider outage loses nothing: resumePending finds the work again.
 */
export class ExtractionQueue implements ExtractionSink {
  readonly extractor: MemoryExtractor;
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly log: (message: string) => void;
  private readonly queue: QueuedJob[] = [];
  /** Memory ids queued, running or waiting to retry, so one memory is never extracted twice at once. */
  private readonly known = new Set<string>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly runningJobs = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private readonly counters = { succeeded: 0, failed: 0, retries: 0, memories_written: 0, raw_replaced: 0, superseded: 0 };
  private lastError: ExtractionStats['last_error'] = null;

  constructor(deps: CoreDeps, longTerm: LongTermMemory, extractor: MemoryExtractor, options: ExtractionQueueOptions = {}) {
    this.deps = deps;
    this.longTerm = longTerm;
    this.extractor = extractor;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? 2_000);
    this.maxDelayMs = Math.max(this.baseDelayMs, options.maxDelayMs ?? 300_000);
    this.log = options.log ?? ((message) => deps.log.warn(message));
  }

  /** Never blocks and never throws: called from inside working-memory tool calls. */
  enqueue(job: ExtractionJob): void {
    if (this.closed || this.known.has(job.memory_id)) return;
    this.known.add(job.memory_id);
    this.queue.push({ ...job, attempt: 1 });
    this.pump();
  }

  /** Re-queues memories of a user still pending from earlier runs (after a restart or an outage); returns how many. */
  async resumePending(userId: string, limit = 200): Promise<number> {
    const { items } = await this.deps.store.listMemories({ filter: { user_id: userId, tags: [EXTRACTION_PENDING_TAG] }, sort: 'created', offset: 0, limit });
    let queued = 0;
    for (const memory of items) {
      if (this.known.has(memory.memory_id)) continue;
      this.enqueue({ user_id: userId, memory_id: memory.memory_id });
      queued++;
    }
    return queued;
  }

  /** Resolves once nothing is queued, running or waiting to retry (tests, shutdown). */
  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stats(): ExtractionStats {
    return {
      extractor: this.extractor.name,
      queued: this.queue.length,
      running: this.runningJobs.size,
      waiting_retry: this.retryTimers.size,
      ...this.counters,
      last_error: this.lastError,
    };
  }

  /** Stops taking work and waits for running extractions; queued work stays pending in the store. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    for (const job of this.queue.splice(0)) this.known.delete(job.memory_id);
    await Promise.all(this.runningJobs);
    this.settleIfIdle();
  }

  private pump(): void {
    while (!this.closed && this.runningJobs.size < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift() as QueuedJob;
      const running: Promise<void> = this.run(job).finally(() => {
        this.runningJobs.delete(running);
        this.pump();
        this.settleIfIdle();
      });
      this.runningJobs.add(running);
    }
  }

  private async run(job: QueuedJob): Promise<void> {
    try {
      const [memory] = await this.deps.store.getMemories(job.user_id, [job.memory_id]);
      // Forgotten or already extracted meanwhile (another window, a resume): nothing to do.
      if (memory && !memory.deleted_at && memory.tags.includes(EXTRACTION_PENDING_TAG)) {
        const extracted = await this.extractor.extract({
          content: memory.content,
          context: {
            user_id: memory.user_id,
            project_id: memory.project_id,
            ...(memory.source_session ? { session_id: memory.source_session } : {}),
            ...(typeof memory.metadata.content_type === 'string' ? { source: memory.metadata.content_type } : {}),
          },
        });
        const outcome = await applyExtraction(this.deps, this.longTerm, memory, extracted, this.extractor.name);
        this.counters.succeeded++;
        this.counters.memories_written += outcome.memory_ids.length;
        this.counters.superseded += outcome.superseded.length;
        if (outcome.raw === 'replaced') this.counters.raw_replaced++;
      }
      this.known.delete(job.memory_id);
    } catch (error) {
      await this.failed(job, error);
    }
  }

  private async failed(job: QueuedJob, error: unknown): Promise<void> {
    const code = error instanceof MemoryError ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = { memory_id: job.memory_id, code, message, at: this.deps.clock.now().toISOString() };
    // Unknown errors are retried too: a store hiccup looks the same as a provider one from here.
    const retryable = !(error instanceof MemoryError) || error.retryable;
    if (retryable && job.attempt < this.maxAttempts && !this.closed) {
      this.counters.retries++;
      const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (job.attempt - 1));
      this.log(`extraction of ${job.memory_id} with ${this.extractor.name} failed (attempt ${job.attempt}/${this.maxAttempts}, retry in ${delay} ms): ${message}`);
      const timer = setTimeout(() => {
        this.retryTimers.delete(job.memory_id);
        this.queue.push({ ...job, attempt: job.attempt + 1 });
        this.pump();
        this.settleIfIdle();
      }, delay);
      timer.unref();
      this.retryTimers.set(job.memory_id, timer);
      return;
    }
    this.counters.failed++;
    this.known.delete(job.memory_id);
    this.log(`extraction of ${job.memory_id} with ${this.extractor.name} gave up after ${job.attempt} attempt(s) [${code}]; it stays stored raw and tagged ${EXTRACTION_PENDING_TAG}: ${message}`);
    await this.recordFailure(job, code, message);
  }

  /** Leaves the reason on the memory, so the panel and exports show why it is still raw. */
  private async recordFailure(job: QueuedJob, code: string, message: string): Promise<void> {
    try {
      const [memory] = await this.deps.store.getMemories(job.user_id, [job.memory_id]);
      if (!memory) return;
      await this.deps.store.updateMemory({ ...memory, metadata: { ...memory.metadata, extraction_error: { code, message, attempts: job.attempt } } });
    } catch (writeError) {
      this.log(`could not record the extraction failure on ${job.memory_id}: ${writeError instanceof Error ? writeError.message : String(writeError)}`);
    }
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.runningJobs.size === 0 && this.retryTimers.size === 0;
  }

  private settleIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
