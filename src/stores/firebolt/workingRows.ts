import type { SessionRecord, WorkingItemRecord } from '../../core/domain/records.ts';
import type { WorkingChange } from '../../core/ports/memoryStore.ts';
import { chunks } from './chunks.ts';
import { lastPerKey, upsertSql } from './mergeSql.ts';
import type { TransactionScope } from './queryClient.ts';
import {
  SESSION_COLUMNS,
  WORKING_ITEM_COLUMNS,
  columnNames,
  sessionFromRow,
  workingItemFromRow,
} from './recordRows.ts';
import { batchesByEncodedSize } from './requestTarget.ts';
import { SqlParams } from './sqlParams.ts';

/** The SQL of sessions and working items on Firebolt (fml_sessions, fml_working_items). */

/** IN lists are chunked so the parameters in the query string stay small. */
const IDS_PER_QUERY = 200;
const WORKING_ITEM_KEYS = ['user_id', 'session_id', 'item_id'];

export async function readSession(scope: TransactionScope, sessionId: string): Promise<SessionRecord | null> {
  const { rows } = await scope.query(
    `SELECT ${columnNames(SESSION_COLUMNS)} FROM fml_sessions WHERE session_id = $1 LIMIT 1`,
    [sessionId],
  );
  return rows.length === 0 ? null : sessionFromRow(rows[0]);
}

export async function readSessions(scope: TransactionScope, userId: string): Promise<SessionRecord[]> {
  const { rows } = await scope.query(
    `SELECT ${columnNames(SESSION_COLUMNS)} FROM fml_sessions WHERE user_id = $1 ORDER BY last_activity DESC, session_id ASC`,
    [userId],
  );
  return rows.map(sessionFromRow);
}

export async function readWorkingItems(scope: TransactionScope, sessionId: string): Promise<WorkingItemRecord[]> {
  const { rows } = await scope.query(
    `SELECT ${columnNames(WORKING_ITEM_COLUMNS)} FROM fml_working_items WHERE session_id = $1 ORDER BY sequence_num ASC, item_id ASC`,
    [sessionId],
  );
  return rows.map(workingItemFromRow);
}

/** Call inside the write's transaction: the session row and its item upserts and deletes land together. */
export async function writeWorkingChange(tx: TransactionScope, change: WorkingChange): Promise<void> {
  const { session } = change;
  const sessionParams = new SqlParams();
  await tx.query(
    upsertSql('fml_sessions', SESSION_COLUMNS, [session], ['user_id', 'session_id'], sessionParams),
    sessionParams.values,
  );
  // Deduplicated first so a batch boundary cannot split an item's versions; batches sized by their encoded parameters.
  const items = lastPerKey(change.upsert, WORKING_ITEM_COLUMNS, WORKING_ITEM_KEYS);
  for (const batch of batchesByEncodedSize(
    items,
    (item) => WORKING_ITEM_COLUMNS.map((column) => column.encode(item)),
    50,
  )) {
    const params = new SqlParams();
    await tx.query(
      upsertSql('fml_working_items', WORKING_ITEM_COLUMNS, batch, WORKING_ITEM_KEYS, params),
      params.values,
    );
  }
  for (const batch of chunks(change.delete, IDS_PER_QUERY)) {
    const params = new SqlParams();
    await tx.query(
      `DELETE FROM fml_working_items WHERE user_id = ${params.add(session.user_id)} AND session_id = ${params.add(session.session_id)} AND item_id IN (${params.list(batch)})`,
      params.values,
    );
  }
}

/** Call inside the write's transaction. True when the user had the session. */
export async function deleteSessionRows(tx: TransactionScope, userId: string, sessionId: string): Promise<boolean> {
  const ids = [userId, sessionId];
  const { rows } = await tx.query('SELECT COUNT(*) AS n FROM fml_sessions WHERE user_id = $1 AND session_id = $2', ids);
  if (Number(rows[0].n) === 0) return false;
  await tx.query('DELETE FROM fml_working_items WHERE user_id = $1 AND session_id = $2', ids);
  await tx.query('DELETE FROM fml_sessions WHERE user_id = $1 AND session_id = $2', ids);
  return true;
}
