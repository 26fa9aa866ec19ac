import type { CoreSurface } from '../../core/coreSurface.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';

/** How many memories a pick offers: the most recently used of the current scope. */
export const PICK_LIMIT = 200;

/** The memories a palette pick offers: the user's, in the window's project scope, most recent first. */
export async function recentMemories(
  core: Pick<CoreSurface, 'listMemories'>,
  identity: { userId: string; scopeProjectId: string | undefined },
): Promise<MemoryRecord[]> {
  const { items } = await core.listMemories({
    filter: { user_id: identity.userId, ...(identity.scopeProjectId ? { project_id: identity.scopeProjectId } : {}) },
    sort: 'recency',
    offset: 0,
    limit: PICK_LIMIT,
  });
  return items;
}
