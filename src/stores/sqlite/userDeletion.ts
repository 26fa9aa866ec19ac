import type { DeletionReceipt } from '../../core/ports/memoryStore.ts';
import type { StatementCache } from './statementCache.ts';

/** Call inside a write transaction: removes every row the user owns, in every table. */
export function deleteUserRows(sql: StatementCache, userId: string): DeletionReceipt {
  const remove = (table: string): number =>
    Number(sql.get(`DELETE FROM ${table} WHERE user_id = ?`).run(userId).changes);
  remove('embeddings');
  remove('lexical_documents');
  remove('erased_memories');
  return {
    memories_deleted: remove('long_term_memories'),
    sessions_deleted: remove('session_contexts'),
    working_items_deleted: remove('working_memory_items'),
    access_log_deleted: remove('memory_access_log'),
  };
}
