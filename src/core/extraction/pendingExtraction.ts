/**
 * Durable marker of content stored raw and not yet extracted (seed 003 graceful degradation:
 * "LLM extraction fails → store raw content, extract later"). The tag makes pending memories one
 * exact tag filter away after a restart; there is no separate queue table.
 */
export const EXTRACTION_PENDING_TAG = 'extraction:pending';

/** What the background model queue does with a memory: extract memories from it, or add search keys to it. */
export type ModelTask = 'extract' | 'enrich';

export interface ExtractionJob {
  user_id: string;
  memory_id: string;
  /** Default 'extract'. */
  task?: ModelTask;
}

/** What WorkingMemory hands promoted memories to; implemented by ExtractionQueue. */
export interface ExtractionSink {
  enqueue(job: ExtractionJob): void;
}

/** Metadata that marks a memory about to be stored as pending extraction (tags live in metadata.tags on store). */
export function pendingExtractionMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const tags = Array.isArray(metadata.tags)
    ? (metadata.tags as unknown[]).filter((tag): tag is string => typeof tag === 'string')
    : [];
  return { extraction: 'pending', tags: [...new Set([...tags, EXTRACTION_PENDING_TAG])] };
}

export function withoutPendingTag(tags: readonly string[]): string[] {
  return tags.filter((tag) => tag !== EXTRACTION_PENDING_TAG);
}
