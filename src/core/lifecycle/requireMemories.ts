import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { requireId } from '../validation.ts';

/**
 * The named memories of this user, live, in the order asked. Another user's id fails exactly
 * like a missing one (MEMORY_NOT_FOUND), so lifecycle tools leak nothing across users.
 */
export async function requireLiveMemories(
  deps: CoreDeps,
  userId: string,
  ids: readonly string[],
  fields: readonly string[],
): Promise<MemoryRecord[]> {
  const checked = ids.map((id, index) => requireId(id, fields[index] ?? 'memory_id'));
  const found = new Map((await deps.store.getMemories(userId, checked)).map((memory) => [memory.memory_id, memory]));
  return checked.map((id, index) => {
    const memory = found.get(id);
    if (!memory || memory.deleted_at) {
      throw new MemoryError(
        'MEMORY_NOT_FOUND',
        `No memory ${id} exists for user ${userId}${memory ? ' (it is forgotten; restore it first)' : ''}.`,
        {
          details: { field: fields[index] ?? 'memory_id', memory_id: id },
        },
      );
    }
    return memory;
  });
}
