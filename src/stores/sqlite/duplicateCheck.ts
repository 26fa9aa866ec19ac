import { closestDuplicate, type DuplicateGuard, type GuardedInsert } from '../../core/ports/duplicateGuard.ts';
import type { ChangeFeed } from './changeFeed.ts';
import { readEmbeddings, readMemories } from './memoryTables.ts';
import type { StatementCache } from './statementCache.ts';

/**
 * More memories written since the mark than this, and the check is not made inside the write
 * lock: the caller searches again from a fresh mark (a process that was far behind is caught up
 * by then), so a write never holds the lock for a long comparison.
 */
const MAX_CHECKED_IN_WRITE = 200;

/**
 * The mark a duplicate search starts from: the log seq this process's caches reflect. The search
 * that follows catches up first, so it sees every row up to the mark (and maybe more: those are
 * checked twice, harmlessly); no SQL, so a store pays nothing for it.
 */
export function duplicateMarkOf(feed: ChangeFeed): string {
  return String(feed.appliedSeq());
}

/**
 * Inside the insert's write transaction (BEGIN IMMEDIATE, so no other process commits meanwhile):
 * the memories of this user written after `guard.mark` (the change log's rows, this transaction's
 * earlier savepoints included) that duplicate the new one. Everything written up to the mark was
 * visible to the caller's search. Null when none does; 'stale' when the log no longer reaches
 * back to the mark, or too much was written since it.
 */
export function duplicateWrittenSince(
  sql: StatementCache,
  feed: ChangeFeed,
  userId: string,
  guard: DuplicateGuard,
): Exclude<GuardedInsert, { status: 'inserted' }> | null {
  const mark = Number(guard.mark);
  const changes = Number.isSafeInteger(mark) ? feed.changesOfUserSince(userId, mark) : null;
  if (changes === null) return { status: 'stale' };
  const ids = [
    ...new Set(changes.flatMap((change) => (change.op === 'upsert' && change.memory_id ? [change.memory_id] : []))),
  ];
  if (ids.length === 0) return null;
  if (ids.length > MAX_CHECKED_IN_WRITE) return { status: 'stale' };
  const found = closestDuplicate(
    guard,
    readMemories(sql, userId, ids),
    guard.wantsEmbeddings ? readEmbeddings(sql, userId, ids) : new Map(),
  );
  return found === null ? null : { status: 'duplicate', ...found };
}
