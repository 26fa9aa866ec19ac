import { changeBetween } from '../domain/memoryChange.ts';
import type { ChangeOutcome } from '../domain/memoryChange.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import type { MemoryStore } from '../ports/memoryStore.ts';

export interface EditOptions {
  /** 'drop' for background writers: a memory forgotten meanwhile keeps no part of the edit. */
  ifForgotten: 'reject' | 'drop';
  /** Set when the edit is only right for the version it was computed from (a CONFLICT otherwise). */
  expectedVersion?: number;
  /** undefined keeps the stored vector, null removes it. */
  embedding?: StoredEmbedding | null;
  /** false for bookkeeping that must leave updated_at alone. */
  touchesUpdatedAt?: boolean;
}

/**
 * Stores the difference between the copy a caller read (`before`) and the copy it edited
 * (`after`) as one change: fields and metadata keys the caller did not touch are left as the store
 * has them now. An edit that forgets the memory (deleted_at set) is the change, then the forget.
 */
export async function applyEdit(
  store: MemoryStore,
  before: MemoryRecord,
  after: MemoryRecord,
  options: EditOptions,
): Promise<ChangeOutcome> {
  const change = changeBetween(before, after);
  const outcome = await store.changeMemory({
    user_id: before.user_id,
    memory_id: before.memory_id,
    change: options.embedding === undefined ? change : { ...change, embedding: options.embedding },
    at: options.touchesUpdatedAt === false ? null : after.updated_at,
    ...(options.expectedVersion !== undefined ? { expected_version: options.expectedVersion } : {}),
    if_forgotten: options.ifForgotten,
  });
  if (outcome.status === 'applied' && after.deleted_at !== null && before.deleted_at === null) {
    await store.forgetMemories(before.user_id, [before.memory_id], after.deleted_at);
  }
  return outcome;
}
