import type { StoreUserStats } from '../../core/ports/memoryStore.ts';
import type { StatementCache } from './statementCache.ts';
import { storedNullableText, storedRow, storedText } from '../common/storedValues.ts';
import { COUNT_WORKING_ITEMS } from './userDeletion.ts';

function count(sql: StatementCache, text: string, userId: string): number {
  return Number(storedRow(sql.get(text).get(userId), text).n);
}

function histogram(
  sql: StatementCache,
  column: 'memory_category' | 'memory_subtype',
  userId: string,
): Record<string, number> {
  const rows = sql
    .get(
      `SELECT ${column} AS k, COUNT(*) AS n FROM long_term_memories WHERE user_id = ? AND deleted_at IS NULL GROUP BY ${column} ORDER BY ${column}`,
    )
    .all(userId);
  return Object.fromEntries(rows.map((row) => [storedText(row.k, column), Number(row.n)]));
}

/** `memories`, `pinned`, the histograms and oldest/newest count live rows; `deleted` is the trash. */
export function readUserStats(sql: StatementCache, userId: string): StoreUserStats {
  const totalsRow = sql
    .get(
      `SELECT SUM(CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END) AS live,
              SUM(CASE WHEN deleted_at IS NOT NULL THEN 1 ELSE 0 END) AS deleted,
              SUM(CASE WHEN deleted_at IS NULL AND pinned = 1 THEN 1 ELSE 0 END) AS pinned,
              MIN(CASE WHEN deleted_at IS NULL THEN created_at END) AS oldest,
              MAX(CASE WHEN deleted_at IS NULL THEN created_at END) AS newest
       FROM long_term_memories WHERE user_id = ?`,
    )
    .get(userId);
  const pages = storedRow(
    sql.get('SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()').get(),
    'the page count',
  );
  const totals = storedRow(totalsRow, 'the memory totals');
  return {
    memories: Number(totals.live ?? 0),
    deleted: Number(totals.deleted ?? 0),
    pinned: Number(totals.pinned ?? 0),
    by_category: histogram(sql, 'memory_category', userId),
    by_subtype: histogram(sql, 'memory_subtype', userId),
    sessions: count(sql, 'SELECT COUNT(*) AS n FROM session_contexts WHERE user_id = ?', userId),
    working_items: count(sql, COUNT_WORKING_ITEMS, userId),
    access_log_entries: count(sql, 'SELECT COUNT(*) AS n FROM memory_access_log WHERE user_id = ?', userId),
    embedded: count(
      sql,
      `SELECT COUNT(*) AS n FROM embeddings e JOIN long_term_memories m ON m.memory_id = e.memory_id
       WHERE e.user_id = ? AND m.deleted_at IS NULL`,
      userId,
    ),
    oldest: storedNullableText(totals.oldest ?? null, 'oldest'),
    newest: storedNullableText(totals.newest ?? null, 'newest'),
    storage_bytes: Number(pages.bytes),
  };
}
