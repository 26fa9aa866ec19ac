import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { applyEnrichment, recordSkipped } from '../enrichment/applyEnrichment.ts';
import { type EnrichmentPolicy, enrichmentRefusal } from '../enrichment/enrichmentPolicy.ts';
import { ENRICHMENT_PENDING_TAG, markedPending } from '../enrichment/pendingEnrichment.ts';
import type { SearchKeyEnricher } from '../enrichment/searchKeyEnricher.ts';
import { applyExtraction } from './applyExtraction.ts';
import type { MemoryExtractor } from './extractor.ts';
import { EXTRACTION_PENDING_TAG, type ExtractionJob, type ExtractionSink } from './pendingExtraction.ts';
import { applyEdit } from '../longterm/applyEdit.ts';
import type { EnrichmentStats, ExtractionStats } from './queueStats.ts';
import type { ExtractionQueueOptions } from './queueOptions.ts';
import { jobKey, PENDING_TAGS, type QueuedJob, recordJobFailure } from './queuedJob.ts';

export type { EnrichmentStats, ExtractionStats } from './queueStats.ts';
export type { ExtractionQueueOptions } from './queueOptions.ts';

/**
 * The background model queue. Runs extraction of promoted working-memory content off the request
 * path (seed 003: "store raw content, extract later") and, when an enricher is set, search-key
 * enrichment of stored memories (issue #14). The memory is already stored and tagged
 * extraction:pending or enrichment:pending, so a crash, a closed editor or a provider outage
 * loses nothing: resumePending finds the work again. Both tasks share the concurrency limit,
 * the retry policy and the backoff, so a model is never asked more than `concurrency` at once.
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
  /** Task and memory id of jobs queued, running or waiting to retry, so one memory is never worked on twice at once. */
  private readonly known = new Set<string>();
  private enricher: SearchKeyEnricher | null = null;
  private enrichmentPolicy: EnrichmentPolicy = {};
  private readonly enrichCounters = { succeeded: 0, skipped: 0, failed: 0, retries: 0, keys_added: 0 };
  private enrichLastError: EnrichmentStats['last_error'] = null;
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly runningJobs = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private readonly counters = {
    succeeded: 0,
    failed: 0,
    retries: 0,
    memories_written: 0,
    raw_replaced: 0,
    superseded: 0,
  };
  private lastError: ExtractionStats['last_error'] = null;

  constructor(
    deps: CoreDeps,
    longTerm: LongTermMemory,
    extractor: MemoryExtractor,
    options: ExtractionQueueOptions = {},
  ) {
    this.deps = deps;
    this.longTerm = longTerm;
    this.extractor = extractor;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? 2_000);
    this.maxDelayMs = Math.max(this.baseDelayMs, options.maxDelayMs ?? 300_000);
    this.log = options.log ?? ((message) => deps.log.warn(message));
  }

  /**
   * Turns background enrichment on (or swaps the enricher): from now on stored and edited
   * memories are tagged enrichment:pending and queued here. Consent is the caller's: build no
   * enricher when the user has not allowed a model.
   */
  setEnricher(enricher: SearchKeyEnricher, policy: EnrichmentPolicy = {}): void {
    this.enricher = enricher;
    this.enrichmentPolicy = policy;
  }

  get enriching(): boolean {
    return this.enricher !== null && !this.closed;
  }

  /** Never blocks and never throws: called from inside tool calls, after the memory is stored. */
  enqueue(job: ExtractionJob): void {
    const task = job.task ?? 'extract';
    if (this.closed || (task === 'enrich' && this.enricher === null)) return;
    const key = jobKey(task, job.memory_id);
    if (this.known.has(key)) return;
    this.known.add(key);
    this.queue.push({ ...job, task, attempt: 1 });
    this.pump();
  }

  /**
   * Re-queues memories of a user still pending from earlier runs (after a restart or an outage);
   * returns how many. Extraction takes the oldest `limit` (each is a model call that may write
   * several memories); enrichment takes every pending memory, a page of `limit` at a time, since
   * its queue entries are ids only.
   */
  async resumePending(userId: string, limit = 200): Promise<number> {
    let queued = 0;
    for (const task of this.enricher ? (['extract', 'enrich'] as const) : (['extract'] as const)) {
      // Every page is listed before any job starts: a finished job drops its tag and would shift the pages.
      const ids: string[] = [];
      for (let offset = 0; ; offset += limit) {
        const { items, total } = await this.deps.store.listMemories({
          filter: { user_id: userId, tags: [PENDING_TAGS[task]] },
          sort: 'created',
          offset,
          limit,
        });
        ids.push(...items.map((memory) => memory.memory_id));
        if (task === 'extract' || items.length === 0 || offset + limit >= total) break;
      }
      for (const memoryId of ids) {
        if (this.known.has(jobKey(task, memoryId))) continue;
        this.enqueue({ user_id: userId, memory_id: memoryId, task });
        queued++;
      }
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
      ...(this.enricher
        ? { enrichment: { enricher: this.enricher.name, ...this.enrichCounters, last_error: this.enrichLastError } }
        : {}),
    };
  }

  /** Stops taking work and waits for running extractions; queued work stays pending in the store. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    for (const job of this.queue.splice(0)) this.known.delete(jobKey(job.task, job.memory_id));
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
    let again = false;
    try {
      if (job.task === 'enrich') again = await this.enrichOne(job);
      else await this.extractOne(job);
      this.known.delete(jobKey(job.task, job.memory_id));
    } catch (error) {
      await this.failed(job, error);
      return;
    }
    // Edited while the model answered: the edit's own enqueue found this job running, so run again.
    if (again) this.enqueue({ user_id: job.user_id, memory_id: job.memory_id, task: job.task });
  }

  private async extractOne(job: QueuedJob): Promise<void> {
    const [memory] = await this.deps.store.getMemories(job.user_id, [job.memory_id]);
    // Forgotten or already extracted meanwhile (another window, a resume): nothing to do.
    if (!memory || memory.deleted_at || !memory.tags.includes(EXTRACTION_PENDING_TAG)) return;
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
    // A raw memory that stays live is now settled content: it gets search keys like any other.
    else if (this.enricher) await this.markForEnrichment(job.user_id, job.memory_id);
  }

  private async markForEnrichment(userId: string, memoryId: string): Promise<void> {
    const [memory] = await this.deps.store.getMemories(userId, [memoryId]);
    if (!memory || memory.deleted_at) return;
    await applyEdit(this.deps.store, memory, markedPending(memory), { ifForgotten: 'drop' });
    this.enqueue({ user_id: userId, memory_id: memoryId, task: 'enrich' });
  }

  /** Returns true when the memory changed while the model answered, so it must be enriched again. */
  private async enrichOne(job: QueuedJob): Promise<boolean> {
    const enricher = this.enricher;
    if (!enricher) return false;
    const [memory] = await this.deps.store.getMemories(job.user_id, [job.memory_id]);
    // Forgotten memories are not sent; restored ones still carry the tag and are resumed later.
    if (!memory || memory.deleted_at || !memory.tags.includes(ENRICHMENT_PENDING_TAG)) return false;
    const refusal = enrichmentRefusal(memory, this.enrichmentPolicy);
    if (refusal !== null) {
      await recordSkipped(this.deps, memory, refusal);
      this.enrichCounters.skipped++;
      return false;
    }
    const keys = await enricher.enrich({
      content: memory.content,
      category: memory.memory_category,
      subtype: memory.memory_subtype,
      entities: memory.entities,
    });
    const outcome = await applyEnrichment(this.deps, memory, keys, enricher.name);
    if (outcome.status === 'stale') return true;
    if (outcome.status === 'applied') {
      this.enrichCounters.succeeded++;
      this.enrichCounters.keys_added += outcome.keys.length;
    }
    return false;
  }

  private async failed(job: QueuedJob, error: unknown): Promise<void> {
    const code = error instanceof MemoryError ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    const lastError = { memory_id: job.memory_id, code, message, at: this.deps.clock.now().toISOString() };
    const enrich = job.task === 'enrich';
    const counters = enrich ? this.enrichCounters : this.counters;
    const worker = enrich ? (this.enricher?.name ?? 'enricher') : this.extractor.name;
    const what = enrich ? 'enrichment' : 'extraction';
    if (enrich) this.enrichLastError = lastError;
    else this.lastError = lastError;
    // Unknown errors are retried too: a store hiccup looks the same as a provider one from here.
    const retryable = !(error instanceof MemoryError) || error.retryable;
    if (retryable && job.attempt < this.maxAttempts && !this.closed) {
      counters.retries++;
      const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (job.attempt - 1));
      this.log(
        `${what} of ${job.memory_id} with ${worker} failed (attempt ${job.attempt}/${this.maxAttempts}, retry in ${delay} ms): ${message}`,
      );
      const key = jobKey(job.task, job.memory_id);
      const timer = setTimeout(() => {
        this.retryTimers.delete(key);
        this.queue.push({ ...job, attempt: job.attempt + 1 });
        this.pump();
        this.settleIfIdle();
      }, delay);
      timer.unref();
      this.retryTimers.set(key, timer);
      return;
    }
    counters.failed++;
    this.known.delete(jobKey(job.task, job.memory_id));
    this.log(
      `${what} of ${job.memory_id} with ${worker} gave up after ${job.attempt} attempt(s) [${code}]; it stays stored and tagged ${PENDING_TAGS[job.task]}: ${message}`,
    );
    await recordJobFailure(this.deps, this.log, job, { worker, code, message });
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
