import { withExportableAnchors } from '../anchors/exportedAnchors.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { WorkingItemRecord } from '../domain/records.ts';
import { listAllMemories } from '../lifecycle/listAll.ts';
import { requireId } from '../validation.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, type MemoryExport } from './exportFormat.ts';

/** Everything the user has: memories (deleted and superseded included, flagged), sessions and working items. */
export async function exportMemories(deps: CoreDeps, userId: string): Promise<MemoryExport> {
  const user = requireId(userId, 'user_id');
  const [{ items }, sessions] = await Promise.all([
    listAllMemories(deps.store, { user_id: user, state: 'all', include_superseded: true }, Number.MAX_SAFE_INTEGER),
    deps.store.listSessions(user),
  ]);
  const workingItems: WorkingItemRecord[] = [];
  for (const session of sessions)
    workingItems.push(
      ...(await deps.store.listWorkingItems(session.session_id)).filter((item) => item.user_id === user),
    );
  const memories = items.map((memory) => ({ ...withExportableAnchors(memory), deleted: memory.deleted_at !== null }));
  return {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: deps.clock.now().toISOString(),
    user_id: user,
    counts: {
      memories: memories.length,
      deleted_memories: memories.filter((memory) => memory.deleted).length,
      sessions: sessions.length,
      working_items: workingItems.length,
    },
    memories,
    sessions,
    working_items: workingItems,
  };
}
