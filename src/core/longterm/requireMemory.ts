import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { MemoryStore } from '../ports/memoryStore.ts';

/** Another user's id is reported exactly like a missing one, so ids leak nothing. */
export async function requireMemory(store: MemoryStore, userId: string, memoryId: string): Promise<MemoryRecord> {
  const [memory] = await store.getMemories(userId, [memoryId]);
  if (!memory) {
    throw new MemoryError('MEMORY_NOT_FOUND', `No memory ${memoryId} exists for user ${userId}.`, {
      details: { memory_id: memoryId },
    });
  }
  return memory;
}
