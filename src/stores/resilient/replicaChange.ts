import type { ChangeOutcome, ChangeRequest } from '../../core/domain/memoryChange.ts';
import type { MemoryStore } from '../../core/ports/memoryStore.ts';

/** A memory Firebolt has but the replica lacks (written before this replica existed) is copied in first. */
export async function changeInReplica(
  local: MemoryStore,
  remoteIfOnline: () => MemoryStore | null,
  request: ChangeRequest,
): Promise<ChangeOutcome> {
  const outcome = await local.changeMemory({ ...request, if_forgotten: 'drop' });
  if (outcome.status === 'applied') return outcome;
  const remote = outcome.reason === 'missing' ? remoteIfOnline() : null;
  if (remote) {
    const [existing] = await remote.getMemories(request.user_id, [request.memory_id]);
    if (existing) {
      const stored =
        (await remote.getEmbeddings(existing.user_id, [existing.memory_id])).get(existing.memory_id) ?? null;
      await local.insertMemory(existing, stored);
      return local.changeMemory(request);
    }
  }
  // Asked again with the caller's rule, so a user's edit gets its MEMORY_NOT_FOUND.
  return request.if_forgotten === 'drop' ? outcome : local.changeMemory(request);
}
