/**
 * Durable marker of a memory whose search keys are not computed yet, as extraction:pending is for
 * extraction: the tag is written with the memory itself, so a restart, a closed editor or a model
 * outage loses nothing (resumePending finds the work again with one exact tag filter).
 */
export const ENRICHMENT_PENDING_TAG = 'enrichment:pending';
/** Metadata field with the memory's enrichment state (EnrichmentState). */
export const ENRICHMENT_FIELD = 'enrichment';

export type EnrichmentState =
  | { status: 'pending' }
  | { status: 'done'; model: string; at: string; keys: number }
  /** Not sent to any model, and why (EnrichmentRefusal). */
  | { status: 'skipped'; reason: string; at: string }
  /** Given up in this process; still tagged pending, retried after a restart. */
  | { status: 'failed'; model: string; code: string; message: string; attempts: number; at: string };

export function enrichmentStateOf(metadata: Readonly<Record<string, unknown>>): EnrichmentState | null {
  const state = metadata[ENRICHMENT_FIELD];
  return state !== null && typeof state === 'object' && typeof (state as { status?: unknown }).status === 'string'
    ? (state as EnrichmentState)
    : null;
}

export function withPendingEnrichmentTag(tags: readonly string[]): string[] {
  return tags.includes(ENRICHMENT_PENDING_TAG) ? [...tags] : [...tags, ENRICHMENT_PENDING_TAG];
}

export function withoutPendingEnrichmentTag(tags: readonly string[]): string[] {
  return tags.filter((tag) => tag !== ENRICHMENT_PENDING_TAG);
}

/** A record's tags and metadata marked pending (tags live in both, as store() writes them). */
export function markedPending<T extends { tags: string[]; metadata: Record<string, unknown> }>(memory: T): T {
  const tags = withPendingEnrichmentTag(memory.tags);
  return { ...memory, tags, metadata: { ...memory.metadata, tags, [ENRICHMENT_FIELD]: { status: 'pending' } } };
}
