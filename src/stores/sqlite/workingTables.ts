import type { SessionRecord, WorkingItemRecord } from '../../core/domain/records.ts';
import type { WorkingChange } from '../../core/ports/memoryStore.ts';
import {
  SESSION_COLUMNS,
  WORKING_ITEM_COLUMNS,
  rowToSession,
  rowToWorkingItem,
  type SessionRow,
  sessionToParams,
  workingItemToParams,
} from './rowMapping.ts';
import type { StatementCache } from './statementCache.ts';
import { MemoryError } from '../../core/domain/errors.ts';

const SESSION_LIST = SESSION_COLUMNS.join(', ');
const ITEM_LIST = WORKING_ITEM_COLUMNS.join(', ');

function upsertSql(table: string, columns: readonly string[], key: string): string {
  const updates = columns.filter((c) => c !== key && c !== 'user_id').map((c) => `${c} = excluded.${c}`);
  // The WHERE keeps an id owned by another user untouched: ids are not secrets, user scoping is.
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
          ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')} WHERE ${table}.user_id = excluded.user_id`;
}

// Built once: a statement is found by its text, and building it again cost a few µs per call.
const SELECT_SESSION = `SELECT ${SESSION_LIST} FROM session_contexts WHERE session_id = ?`;
const SELECT_ITEMS = `SELECT ${ITEM_LIST} FROM working_memory_items WHERE session_id = ? ORDER BY sequence_num, item_id`;
const UPSERT_SESSION = upsertSql('session_contexts', SESSION_COLUMNS, 'session_id');
const UPSERT_ITEM = upsertSql('working_memory_items', WORKING_ITEM_COLUMNS, 'item_id');

export function readSessionRow(sql: StatementCache, sessionId: string): SessionRow | undefined {
  const row = sql.get(SELECT_SESSION).get(sessionId);
  return row === undefined ? undefined : Object.freeze(row);
}

export function readSessions(sql: StatementCache, userId: string): SessionRecord[] {
  return sql
    .get(`SELECT ${SESSION_LIST} FROM session_contexts WHERE user_id = ? ORDER BY last_activity DESC, session_id`)
    .all(userId)
    .map(rowToSession);
}

export function readWorkingItems(sql: StatementCache, sessionId: string): WorkingItemRecord[] {
  return sql.get(SELECT_ITEMS).all(sessionId).map(rowToWorkingItem);
}

/** Call inside a write transaction: the items go with their session. True when the user had it. */
export function deleteSessionRows(sql: StatementCache, userId: string, sessionId: string): boolean {
  sql.get('DELETE FROM working_memory_items WHERE session_id = ? AND user_id = ?').run(sessionId, userId);
  const removed = sql.get('DELETE FROM session_contexts WHERE session_id = ? AND user_id = ?').run(sessionId, userId);
  return Number(removed.changes) > 0;
}

/** Call inside a write transaction: the session row and its items change together. */
export function applyWorkingChange(sql: StatementCache, change: WorkingChange): void {
  const { session } = change;
  const written = sql.get(UPSERT_SESSION).run(...sessionToParams(session));
  if (Number(written.changes) === 0) {
    throw new MemoryError('INVALID_INPUT', `session_id "${session.session_id}" is already used by another user.`, {
      operation: 'commitWorking',
      details: { field: 'session_id' },
    });
  }
  const upsertItem = sql.get(UPSERT_ITEM);
  for (const item of change.upsert) {
    if (item.session_id !== session.session_id || item.user_id !== session.user_id) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Working item ${item.item_id} belongs to session ${item.session_id} of user ${item.user_id}, not to the session being committed.`,
        {
          operation: 'commitWorking',
          details: { field: 'item.session_id' },
        },
      );
    }
    const stored = upsertItem.run(...workingItemToParams(item));
    if (Number(stored.changes) === 0) {
      throw new MemoryError('INVALID_INPUT', `item_id "${item.item_id}" is already used by another user.`, {
        operation: 'commitWorking',
        details: { field: 'item_id' },
      });
    }
  }
  const deleteItem = sql.get('DELETE FROM working_memory_items WHERE item_id = ? AND session_id = ? AND user_id = ?');
  for (const itemId of change.delete) deleteItem.run(itemId, session.session_id, session.user_id);
}
