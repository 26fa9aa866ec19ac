import type { ChangeEntry } from './changeFeed.ts';
import { readMemories } from './memoryTables.ts';
import type { Connection } from './sqliteConnection.ts';
import type { StatementCache } from './statementCache.ts';
import type { UserCaches } from './userCaches.ts';
import type { WorkingItemCache } from './workingItemCache.ts';

/**
 * Brings this process's caches up to what other processes committed, read from the change log
 * (changeFeed.ts) inside the read transaction that follows, so both see one snapshot of the file.
 */
export function applyOtherProcessChanges(
  { feed, sql }: Connection,
  caches: UserCaches,
  workingItems: WorkingItemCache,
): void {
  const update = feed.catchUp();
  if (update.kind === 'current') return;
  // Working-memory writes leave no change-log rows: any commit of another process may hold one.
  // Nor does a memory row changed outside the store (by hand): the rows held for reads go too.
  workingItems.clear();
  for (const state of caches.users.values()) state.rows.clear();
  if (update.kind === 'reset') {
    caches.users.clear();
    return;
  }
  applyChanges(update.changes, caches, sql);
}

function applyChanges(changes: readonly ChangeEntry[], caches: UserCaches, sql: StatementCache): void {
  const { users } = caches;
  const refresh = new Map<string, Set<string>>();
  const touch = new Map<string, Set<string>>();
  for (const change of changes) {
    if (!users.has(change.user_id)) continue;
    if (change.op === 'drop_user') {
      users.delete(change.user_id);
      refresh.delete(change.user_id);
      touch.delete(change.user_id);
      continue;
    }
    if (change.memory_id === null) continue;
    const target = change.op === 'touch' ? touch : refresh;
    let ids = target.get(change.user_id);
    if (ids === undefined) target.set(change.user_id, (ids = new Set()));
    ids.add(change.memory_id);
  }
  for (const [userId, ids] of refresh) caches.refreshMemories(userId, [...ids]);
  for (const [userId, ids] of touch) {
    const state = users.get(userId);
    if (state === undefined) continue;
    for (const memory of readMemories(sql, userId, [...ids])) {
      state.touch(memory.memory_id, memory.access_count, memory.last_accessed);
    }
  }
}
