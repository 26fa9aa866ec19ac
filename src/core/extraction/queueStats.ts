/** What the background model queue reports (memory_stats, the status bar). */

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
  /** Present while background enrichment is on (setEnricher). */
  enrichment?: EnrichmentStats;
}

export interface EnrichmentStats {
  enricher: string;
  succeeded: number;
  /** Memories not sent to the model (secret, excluded file): see each memory's metadata.enrichment. */
  skipped: number;
  failed: number;
  retries: number;
  keys_added: number;
  last_error: { memory_id: string; code: string; message: string; at: string } | null;
}
