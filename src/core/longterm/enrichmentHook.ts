import type { MemoryRecord } from '../domain/records.ts';
import { EXTRACTION_PENDING_TAG, type ExtractionSink } from '../extraction/pendingExtraction.ts';
import { markedPending } from '../enrichment/pendingEnrichment.ts';

/** Where stored and edited memories go for search keys; set by MemoryCore.startEnrichment. */
export interface EnrichmentSink extends ExtractionSink {
  readonly enriching: boolean;
}

/**
 * Background enrichment (issue #14): when a sink is set, every stored or edited memory is written
 * already tagged enrichment:pending and queued after the write, so a store never waits for a model.
 */
export class EnrichmentHook {
  sink: EnrichmentSink | null = null;

  /** The record as it is written while enrichment runs: tagged pending, unless it waits for extraction first. */
  forEnrichment(memory: MemoryRecord): MemoryRecord {
    if (!this.sink?.enriching || memory.tags.includes(EXTRACTION_PENDING_TAG)) return memory;
    return markedPending(memory);
  }

  /** After the write is acknowledged: the queue only takes the id, the model runs later. */
  queueEnrichment(memory: MemoryRecord): void {
    if (!this.sink?.enriching || memory.tags.includes(EXTRACTION_PENDING_TAG)) return;
    this.sink.enqueue({ user_id: memory.user_id, memory_id: memory.memory_id, task: 'enrich' });
  }
}
