import { changeBetween } from '../../src/core/domain/memoryChange.ts';
import type { MemoryRecord, StoredEmbedding } from '../../src/core/domain/records.ts';
import { MemoryError } from '../../src/core/domain/errors.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';

/**
 * For tests that set up a state: makes the stored memory look like `wanted` through the port's
 * intents (the change of every differing field, then forget or restore). Resolves with the stored row.
 */
export async function rewriteMemory(
  store: MemoryStore,
  wanted: MemoryRecord,
  embedding?: StoredEmbedding | null,
): Promise<MemoryRecord> {
  const [current] = await store.getMemories(wanted.user_id, [wanted.memory_id]);
  if (!current) throw new MemoryError('MEMORY_NOT_FOUND', `No memory ${wanted.memory_id}.`);
  if (current.deleted_at !== null) await store.restoreMemories(wanted.user_id, [wanted.memory_id], wanted.updated_at);
  const change = changeBetween(current, wanted);
  await store.changeMemory({
    user_id: wanted.user_id,
    memory_id: wanted.memory_id,
    change: embedding === undefined ? change : { ...change, embedding },
    at: wanted.updated_at,
    if_forgotten: 'reject',
  });
  if (wanted.deleted_at !== null) await store.forgetMemories(wanted.user_id, [wanted.memory_id], wanted.deleted_at);
  const [stored] = await store.getMemories(wanted.user_id, [wanted.memory_id]);
  return stored;
}
