import type { StatementCache } from './statementCache.ts';

/** How many rows per side are read before filtering, so filtered-out neighbours do not starve the window. */
export const ADJACENT_OVERFETCH = 4;

/**
 * Ids of the user's live memories inserted just before and after one memory (rowid order, the
 * order they were stored in), nearest first; null when the memory is not the user's.
 */
export function readAdjacentIds(sql: StatementCache, userId: string, memoryId: string, perSide: number): { before: string[]; after: string[] } | null {
  const anchor = sql.get('SELECT rowid AS seq FROM long_term_memories WHERE memory_id = ? AND +user_id = ?').get(memoryId, userId) as { seq: number | bigint } | undefined;
  if (anchor === undefined) return null;
  const before = sql
    .get('SELECT memory_id FROM long_term_memories WHERE user_id = ? AND rowid < ? AND deleted_at IS NULL ORDER BY rowid DESC LIMIT ?')
    .all(userId, anchor.seq, perSide) as Array<{ memory_id: string }>;
  const after = sql
    .get('SELECT memory_id FROM long_term_memories WHERE user_id = ? AND rowid > ? AND deleted_at IS NULL ORDER BY rowid ASC LIMIT ?')
    .all(userId, anchor.seq, perSide) as Array<{ memory_id: string }>;
  return { before: before.map((row) => row.memory_id), after: after.map((row) => row.memory_id) };
}
