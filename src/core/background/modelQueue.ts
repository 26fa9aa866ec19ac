import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { EnrichmentPolicy } from '../enrichment/enrichmentPolicy.ts';
import type { SearchKeyEnricher } from '../enrichment/searchKeyEnricher.ts';
import { ExtractionQueue, type ExtractionQueueOptions } from '../extraction/extractionQueue.ts';
import type { MemoryExtractor } from '../extraction/extractor.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import type { WorkingMemory } from '../working/workingMemory.ts';

/**
 * The one background model queue: extraction of promoted working-memory content (seed 000 §8.3,
 * seed 003) and, once started, enrichment of stored memories with search keys (issue #14), both
 * off the request path.
 */
export class BackgroundModelQueue {
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  private readonly working: WorkingMemory;
  private queue: ExtractionQueue | null = null;
  private enrichment: { enricher: SearchKeyEnricher; policy: EnrichmentPolicy } | null = null;

  constructor(deps: CoreDeps, longTerm: LongTermMemory, working: WorkingMemory) {
    this.deps = deps;
    this.longTerm = longTerm;
    this.working = working;
  }

  /** The running queue; null until extraction starts. */
  get current(): ExtractionQueue | null {
    return this.queue;
  }

  /**
   * From now on checkpoint and eviction store content raw, tagged extraction:pending, and the
   * queue replaces it with extracted memories. Replaces a queue started earlier, keeping enrichment.
   */
  async startExtraction(extractor: MemoryExtractor, options?: ExtractionQueueOptions): Promise<ExtractionQueue> {
    const previous = this.queue;
    const queue = new ExtractionQueue(this.deps, this.longTerm, extractor, options);
    if (this.enrichment) queue.setEnricher(this.enrichment.enricher, this.enrichment.policy);
    this.queue = queue;
    this.working.extractionSink = queue;
    this.longTerm.enrichmentSink = queue;
    await previous?.close();
    return queue;
  }

  /**
   * From now on stored and edited memories are tagged enrichment:pending and get search keys from
   * `enricher`. The caller has the user's consent; `policy` says which content may not be sent.
   */
  startEnrichment(enricher: SearchKeyEnricher, policy: EnrichmentPolicy = {}): ExtractionQueue {
    const queue = this.queue;
    if (!queue)
      throw new MemoryError(
        'CONFIGURATION_ERROR',
        'Start extraction before enrichment: both run on the one background model queue.',
      );
    this.enrichment = { enricher, policy };
    queue.setEnricher(enricher, policy);
    return queue;
  }

  /** Lets running extractions finish; queued ones stay pending in the store. */
  async close(): Promise<void> {
    await this.queue?.close();
  }
}
