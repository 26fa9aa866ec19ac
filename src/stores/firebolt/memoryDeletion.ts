import type { ForgetOutcome } from '../../core/domain/memoryChange.ts';
import type { DeletionReceipt, HardDeleteReason } from '../../core/ports/memoryStore.ts';
import { storedText } from '../common/storedValues.ts';
import { chunks } from './chunks.ts';
import type { TransactionScope } from './queryClient.ts';
import { sqlIdentifier } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';
import type { VectorTable } from './vectorTables.ts';

/** Forgetting, restoring and erasing on Firebolt; each runs inside the caller's write transaction. */

/** IN lists are chunked so the parameters in the query string stay small. */
const IDS_PER_QUERY = 200;

/** Which ids change is read inside the transaction, then one UPDATE per batch; `deletedAt` null restores. */
export async function setForgotten(
  tx: TransactionScope,
  userId: string,
  ids: readonly string[],
  deletedAt: string | null,
  at: string,
): Promise<ForgetOutcome> {
  const states = new Map<string, boolean>();
  for (const batch of chunks(ids, IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await tx.query(
      `SELECT memory_id, deleted_at FROM fml_memories WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
      params.values,
    );
    for (const row of rows) states.set(storedText(row.memory_id, 'memory_id'), row.deleted_at !== null);
  }
  const changed = ids.filter((id) => states.has(id) && states.get(id) === (deletedAt === null));
  for (const batch of chunks(changed, IDS_PER_QUERY)) {
    const params = new SqlParams();
    await tx.query(
      `UPDATE fml_memories SET deleted_at = ${params.add(deletedAt)}::TIMESTAMPTZ, updated_at = ${params.add(at)}::TIMESTAMPTZ, version = version + 1
           WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)}) AND deleted_at IS ${deletedAt === null ? 'NOT NULL' : 'NULL'}`,
      params.values,
    );
  }
  const done = new Set(changed);
  return {
    changed,
    unchanged: ids.filter((id) => states.has(id) && !done.has(id)),
    missing: ids.filter((id) => !states.has(id)),
  };
}

/** Every row of one memory; an erasure also records the id, so it can never be stored again. */
export async function deleteMemoryRows(
  tx: TransactionScope,
  vectorTables: readonly VectorTable[],
  userId: string,
  memoryId: string,
  reason: HardDeleteReason,
): Promise<void> {
  const ids = [userId, memoryId];
  await tx.query('DELETE FROM fml_memories WHERE user_id = $1 AND memory_id = $2', ids);
  await tx.query('DELETE FROM fml_memory_terms WHERE user_id = $1 AND memory_id = $2', ids);
  await tx.query('DELETE FROM fml_access_log WHERE user_id = $1 AND memory_id = $2', ids);
  if (reason === 'erasure')
    await tx.query('INSERT INTO fml_erased_memories (user_id, memory_id) VALUES ($1::TEXT, $2::TEXT)', ids);
  for (const table of vectorTables)
    await tx.query(`DELETE FROM ${sqlIdentifier(table.table)} WHERE user_id = $1 AND memory_id = $2`, ids);
}

/** Every row of one user in every table, counted first for the receipt. */
export async function deleteUserRows(
  tx: TransactionScope,
  vectorTables: readonly VectorTable[],
  userId: string,
): Promise<DeletionReceipt> {
  const count = async (table: string): Promise<number> =>
    Number((await tx.query(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = $1`, [userId])).rows[0].n);
  const receipt: DeletionReceipt = {
    memories_deleted: await count('fml_memories'),
    sessions_deleted: await count('fml_sessions'),
    working_items_deleted: await count('fml_working_items'),
    access_log_deleted: await count('fml_access_log'),
  };
  const tables = [
    'fml_memories',
    'fml_memory_terms',
    'fml_sessions',
    'fml_working_items',
    'fml_access_log',
    'fml_erased_memories',
    ...vectorTables.map((t) => sqlIdentifier(t.table)),
  ];
  for (const table of tables) await tx.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
  return receipt;
}
