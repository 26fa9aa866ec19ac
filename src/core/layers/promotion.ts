import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { PromoteMemoryInput, PromoteMemoryOutput, PromotionRecord } from '../api/layersApi.ts';
import { requireLayer } from '../domain/layers.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { LIMITS, requireId } from '../validation.ts';
import { identifiersFrom, partitionForCall, scopeFor } from './layerScope.ts';
import { applyEdit } from '../longterm/applyEdit.ts';

const MAX_REASON_CHARS = LIMITS.reasonChars;

/**
 * Moves knowledge between layers, only when asked (issue 7: never silently). The memory is
 * copied into the target layer with a promotion record naming who promoted what, from where and
 * when; the original keeps a pointer to the copy, and is forgotten only when `move` says so.
 */
export async function promoteMemory(
  deps: CoreDeps,
  longTerm: LongTermMemory,
  input: PromoteMemoryInput,
): Promise<PromoteMemoryOutput> {
  const userId = requireId(input.user_id, 'user_id');
  const memoryId = requireId(input.memory_id, 'memory_id');
  const target = scopeFor(requireLayer(input.to_layer, 'to_layer'), identifiersFrom({ ...input, user_id: userId }));
  const reason = input.reason === undefined ? null : requireReason(input.reason);
  const sourcePartition = partitionForCall({ ...input, user_id: userId, layer: input.from_layer });
  const [source] = await deps.store.getMemories(sourcePartition, [memoryId]);
  if (!source || source.deleted_at || source.superseded_by) {
    throw new MemoryError(
      'MEMORY_NOT_FOUND',
      `No live memory ${memoryId} exists in the ${input.from_layer ?? 'your own'} layer${input.from_layer ? '' : 's'}; pass from_layer with its id for a shared one.`,
      {
        details: { memory_id: memoryId },
      },
    );
  }
  if (source.layer === target.layer && source.scope_id === target.scope_id) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Memory ${memoryId} is already in the ${target.layer} layer (${target.scope_id}).`,
      { details: { field: 'to_layer' } },
    );
  }

  const earlier = promotionsOf(source).find(
    (record) => record.to_layer === target.layer && record.to_scope_id === target.scope_id,
  );
  if (earlier) {
    const [copy] = await deps.store.getMemories(target.partition, [earlier.to_memory_id]);
    if (copy && !copy.deleted_at)
      return { action: 'already_promoted', memory_id: copy.memory_id, promotion: earlier, source_removed: false };
  }

  const promotedAt = deps.clock.now().toISOString();
  const { promoted_to: _history, ...metadata } = source.metadata;
  const provenance = {
    from_memory_id: source.memory_id,
    from_layer: source.layer,
    from_scope_id: source.scope_id,
    promoted_by: userId,
    promoted_at: promotedAt,
    reason,
  };
  const stored = await longTerm.store({
    user_id: userId,
    content: source.content,
    memory_category: source.memory_category,
    memory_subtype: source.memory_subtype,
    importance: source.importance,
    confidence: source.confidence,
    entities: source.entities,
    ...(source.event_time ? { event_time: source.event_time } : {}),
    metadata: { ...metadata, tags: source.tags, promotion: provenance },
    source_type: source.source_type,
    layer: target.layer,
    ...identifiersFrom({ ...input, user_id: userId }),
    project_id: target.layer === 'project' ? target.scope_id : source.project_id,
  });
  const promotion: PromotionRecord = {
    ...provenance,
    to_memory_id: stored.memory_id,
    to_layer: target.layer,
    to_scope_id: target.scope_id,
  };

  const now = deps.clock.now().toISOString();
  const updatedSource: MemoryRecord = {
    ...source,
    metadata: { ...source.metadata, promoted_to: [...promotionsOf(source), promotion] },
    ...(input.move ? { deleted_at: now } : {}),
    updated_at: now,
  };
  await applyEdit(deps.store, source, updatedSource, { ifForgotten: 'reject' });
  deps.events.emit({
    type: 'memory',
    user_id: source.user_id,
    memory_ids: [source.memory_id],
    change: input.move ? 'deleted' : 'updated',
  });
  const merged = stored.similar_existing !== undefined && stored.similar_existing.action !== 'created_new';
  return {
    action: merged ? 'merged' : 'promoted',
    memory_id: stored.memory_id,
    promotion,
    source_removed: input.move === true,
  };
}

/** The promotions recorded on a memory, oldest first. */
export function promotionsOf(memory: MemoryRecord): PromotionRecord[] {
  const list = memory.metadata.promoted_to;
  return Array.isArray(list)
    ? (list.filter((entry) => typeof entry === 'object' && entry !== null) as PromotionRecord[])
    : [];
}

function requireReason(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_REASON_CHARS) {
    throw new MemoryError('INVALID_INPUT', `reason must be a string of at most ${MAX_REASON_CHARS} characters.`, {
      details: { field: 'reason' },
    });
  }
  return value;
}
