import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import { LIMITS, requireId } from '../validation.ts';
import { requireLiveMemories } from './requireMemories.ts';

export interface SupersedeInput {
  user_id: string;
  /** The memory that is now wrong or outdated. */
  memory_id: string;
  /** The memory that replaces it. */
  superseded_by: string;
  reason?: string;
}

export interface SupersedeOutput {
  memory_id: string;
  superseded_by: string;
  previous_confidence: number;
  confidence: number;
}

/** Lowered confidence of a superseded memory: it stays in history but loses to what replaced it. */
const SUPERSEDED_CONFIDENCE_CAP = 0.5;

/** Explicit correction: A is superseded by B (supersede_memory). Both must be live memories of the user. */
export async function supersedeMemory(deps: CoreDeps, input: SupersedeInput): Promise<SupersedeOutput> {
  const userId = requireId(input.user_id, 'user_id');
  if (input.memory_id === input.superseded_by) {
    throw new MemoryError('INVALID_INPUT', 'A memory cannot supersede itself; pass two different ids.', {
      details: { field: 'superseded_by' },
    });
  }
  if (input.reason !== undefined && (typeof input.reason !== 'string' || input.reason.length > LIMITS.reasonChars)) {
    throw new MemoryError('INVALID_INPUT', `reason must be a string of at most ${LIMITS.reasonChars} characters.`, {
      details: { field: 'reason' },
    });
  }
  const [older, newer] = await requireLiveMemories(
    deps,
    userId,
    [input.memory_id, input.superseded_by],
    ['memory_id', 'superseded_by'],
  );
  if (newer.superseded_by) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Memory ${newer.memory_id} is itself superseded by ${newer.superseded_by}; supersede with the current one.`,
      {
        details: { field: 'superseded_by' },
      },
    );
  }
  const now = deps.clock.now().toISOString();
  const confidence = Math.min(older.confidence, SUPERSEDED_CONFIDENCE_CAP);
  // Both changes are based on what was read: the older one must still be the one judged outdated,
  // the newer one must not have been superseded itself meanwhile.
  await deps.store.changeMemory({
    user_id: older.user_id,
    memory_id: older.memory_id,
    change: {
      set: { superseded_by: newer.memory_id },
      cap_confidence: confidence,
      add_related: [newer.memory_id],
      ...(input.reason ? { merge_metadata: { superseded_reason: input.reason } } : {}),
    },
    at: now,
    expected_version: older.version,
    if_forgotten: 'reject',
  });
  await deps.store.changeMemory({
    user_id: newer.user_id,
    memory_id: newer.memory_id,
    change: { set: { supersedes: older.memory_id }, add_related: [older.memory_id] },
    at: now,
    expected_version: newer.version,
    if_forgotten: 'reject',
  });
  deps.events.emit({
    type: 'memory',
    user_id: userId,
    memory_ids: [older.memory_id, newer.memory_id],
    change: 'updated',
  });
  return {
    memory_id: older.memory_id,
    superseded_by: newer.memory_id,
    previous_confidence: older.confidence,
    confidence,
  };
}
