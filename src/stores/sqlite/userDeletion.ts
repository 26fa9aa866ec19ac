import type { DeletionReceipt } from '../../core/ports/memoryStore.ts';
import type { StatementCache } from './statementCache.ts';

/**
 * A user's lexical documents and working items have no user index (migration 5): they are found
 * through the memories and sessions they belong to. Every writer keeps them so: a lexical
 * document is written with its memory, in its transaction, and goes with it (memoryTables.ts); a
 * working item is written only with its own session's row and deleted before it (workingTables.ts).
 */
const DEPENDENT_ROWS = {
  lexical_documents: 'memory_id IN (SELECT memory_id FROM long_term_memories WHERE user_id = ?)',
  working_memory_items: 'session_id IN (SELECT session_id FROM session_contexts WHERE user_id = ?)',
} as const;

/** Call inside a write transaction: removes every row the user owns, in every table. */
export function deleteUserRows(sql: StatementCache, userId: string): DeletionReceipt {
  const remove = (table: string, where = 'user_id = ?'): number =>
    Number(sql.get(`DELETE FROM ${table} WHERE ${where}`).run(userId).changes);
  remove('embeddings');
  // Before the rows they are found through.
  remove('lexical_documents', DEPENDENT_ROWS.lexical_documents);
  const workingItems = remove('working_memory_items', DEPENDENT_ROWS.working_memory_items);
  remove('erased_memories');
  return {
    memories_deleted: remove('long_term_memories'),
    sessions_deleted: remove('session_contexts'),
    working_items_deleted: workingItems,
    access_log_deleted: remove('memory_access_log'),
  };
}

/** The user's working items, counted through their sessions (see DEPENDENT_ROWS). */
export const COUNT_WORKING_ITEMS = `SELECT COUNT(*) AS n FROM working_memory_items WHERE ${DEPENDENT_ROWS.working_memory_items}`;
