import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { LIMITS, requireId, requireUnitInterval } from '../validation.ts';
import { isProtected } from './eligibility.ts';
import { listAllMemories } from './listAll.ts';
import { applyEdit } from '../longterm/applyEdit.ts';

/** memory_prune (seed 004): archive old or low-value memories. Archiving is a soft delete; the trash can restore it. */

export interface PruneInput {
  user_id: string;
  /** Archive memories not accessed for more than this many days. */
  older_than_days?: number;
  /** Archive memories whose score (importance × decay_factor × confidence) is below this. */
  max_score?: number;
  dry_run?: boolean;
  /** Most memories to archive in one call (default 500). */
  limit?: number;
}

export interface PrunedMemory {
  memory_id: string;
  content_preview: string;
  score: number;
  days_since_access: number;
  reason: string;
}

export interface PruneOutput {
  archived: PrunedMemory[];
  archived_count: number;
  memories_considered: number;
  dry_run: boolean;
}

const DAY_MS = 86_400_000;

export function memoryScore(memory: MemoryRecord): number {
  return Math.round(memory.importance * memory.decay_factor * memory.confidence * 1000) / 1000;
}

export async function pruneMemories(deps: CoreDeps, input: PruneInput): Promise<PruneOutput> {
  const userId = requireId(input.user_id, 'user_id');
  if (input.older_than_days === undefined && input.max_score === undefined) {
    throw new MemoryError('INVALID_INPUT', 'Say what to prune: older_than_days, max_score, or both.', {
      details: { field: 'older_than_days' },
    });
  }
  if (input.older_than_days !== undefined && (!Number.isFinite(input.older_than_days) || input.older_than_days < 1)) {
    throw new MemoryError('INVALID_INPUT', 'older_than_days must be a number of days of at least 1.', {
      details: { field: 'older_than_days' },
    });
  }
  const maxScore = input.max_score === undefined ? undefined : requireUnitInterval(input.max_score, 'max_score', 0);
  const limit = Math.max(1, Math.min(LIMITS.pruneBatch, Math.floor(input.limit ?? 500)));
  const now = deps.clock.now();
  const { items } = await listAllMemories(
    deps.store,
    { user_id: userId, state: 'live', include_superseded: true },
    50_000,
  );
  const archived: PrunedMemory[] = [];
  for (const memory of items) {
    if (archived.length >= limit) break;
    if (isProtected(memory)) continue;
    const days = Math.floor((now.getTime() - Date.parse(memory.last_accessed)) / DAY_MS);
    const score = memoryScore(memory);
    const reasons = [
      input.older_than_days !== undefined && days > input.older_than_days
        ? `not accessed for ${days} days (> ${input.older_than_days})`
        : null,
      maxScore !== undefined && score < maxScore ? `score ${score} < ${maxScore}` : null,
    ].filter((reason): reason is string => reason !== null);
    // With both criteria given, both must hold: "old AND low value" is the safe reading.
    const needed = (input.older_than_days !== undefined ? 1 : 0) + (maxScore !== undefined ? 1 : 0);
    if (reasons.length < needed) continue;
    archived.push({
      memory_id: memory.memory_id,
      content_preview: memory.content.slice(0, 160),
      score,
      days_since_access: days,
      reason: reasons.join('; '),
    });
    if (!input.dry_run) {
      const at = now.toISOString();
      // Recorded why, then forgotten; a memory edited since the scan keeps the edit.
      await applyEdit(
        deps.store,
        memory,
        {
          ...memory,
          deleted_at: at,
          updated_at: at,
          metadata: { ...memory.metadata, archived: { at, by: 'memory_prune', reason: reasons.join('; ') } },
        },
        { ifForgotten: 'drop' },
      );
    }
  }
  if (!input.dry_run && archived.length > 0)
    deps.events.emit({
      type: 'memory',
      user_id: userId,
      memory_ids: archived.map((entry) => entry.memory_id),
      change: 'deleted',
    });
  return {
    archived,
    archived_count: archived.length,
    memories_considered: items.length,
    dry_run: input.dry_run === true,
  };
}
