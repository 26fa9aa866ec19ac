/** How the background model queue is tuned: concurrency, retries and backoff, where it logs. */
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
