import { MemoryError } from '../domain/errors.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { guardText } from '../safety/contentGuard.ts';
import { removedSearchKeysOf, searchKeyIdentity, withSearchKeys, withoutSearchKeysFrom } from '../text/searchKeys.ts';
import { LIMITS } from '../validation.ts';
import { ENRICHMENT_FIELD, type EnrichmentState, withoutPendingEnrichmentTag } from './pendingEnrichment.ts';
import { applyEdit } from '../longterm/applyEdit.ts';

export type EnrichmentOutcome =
  | { status: 'applied'; keys: string[] }
  /** The memory was edited while the model answered: the keys describe old content and are dropped. */
  | { status: 'stale' }
  /** Forgotten or deleted meanwhile: nothing is written. */
  | { status: 'gone' };

/**
 * Stores a model's keys on the memory they were computed for: the model's earlier keys are
 * replaced (an edit re-enriches), the agent's and the user's stay, keys the user removed are not
 * added back, and a key the secret detector flags is dropped. The keys go into the same
 * metadata field as store_memory's `keywords`, so they are indexed the same way, at the same
 * lower weight.
 */
export async function applyEnrichment(
  deps: CoreDeps,
  sent: MemoryRecord,
  keys: readonly string[],
  model: string,
): Promise<EnrichmentOutcome> {
  const [current] = await deps.store.getMemories(sent.user_id, [sent.memory_id]);
  if (!current || current.deleted_at) return { status: 'gone' };
  if (current.content !== sent.content) return { status: 'stale' };
  const removed = new Set(removedSearchKeysOf(current.metadata));
  const accepted = keys.filter(
    (key) =>
      !removed.has(searchKeyIdentity(key)) &&
      guardText(key, { secretPolicy: 'redact', piiRedaction: true }).redactions.length === 0,
  );
  const now = deps.clock.now().toISOString();
  const withKeys = withSearchKeys(
    withoutSearchKeysFrom(current.metadata, 'model'),
    accepted,
    { by: 'model', model, at: now },
    LIMITS.searchKeys,
  );
  const tags = withoutPendingEnrichmentTag(current.tags);
  const state: EnrichmentState = { status: 'done', model, at: now, keys: accepted.length };
  const updated: MemoryRecord = {
    ...current,
    tags,
    metadata: { ...withKeys, tags, [ENRICHMENT_FIELD]: state },
    updated_at: now,
  };
  // A memory forgotten (or edited) while the model was answering keeps its state: the keys are
  // merged into the row as it is now, and a forgotten one takes nothing.
  // Keys of the text as read: another change since (new text, an edit) makes them stale.
  const outcome = await applyEdit(deps.store, current, updated, {
    ifForgotten: 'drop',
    expectedVersion: current.version,
  }).catch((error: unknown) => {
    if (MemoryError.is(error, 'CONFLICT')) return null;
    throw error;
  });
  if (outcome === null) return { status: 'stale' };
  if (outcome.status === 'dropped') return { status: 'gone' };
  deps.events.emit({ type: 'memory', user_id: current.user_id, memory_ids: [current.memory_id], change: 'updated' });
  return { status: 'applied', keys: accepted };
}

/** Settles a memory that must not be sent: no longer pending, and the reason recorded for the panel. */
export async function recordSkipped(deps: CoreDeps, memory: MemoryRecord, reason: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  const tags = withoutPendingEnrichmentTag(memory.tags);
  const state: EnrichmentState = { status: 'skipped', reason, at: now };
  const outcome = await applyEdit(
    deps.store,
    memory,
    { ...memory, tags, metadata: { ...memory.metadata, tags, [ENRICHMENT_FIELD]: state } },
    { ifForgotten: 'drop', touchesUpdatedAt: false },
  );
  if (outcome.status === 'dropped') return;
  deps.events.emit({ type: 'memory', user_id: memory.user_id, memory_ids: [memory.memory_id], change: 'updated' });
}
