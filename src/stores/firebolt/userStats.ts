import type { StoreUserStats } from '../../core/ports/memoryStore.ts';
import { storedText } from '../common/storedValues.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { sqlIdentifier } from './sqlLiteral.ts';
import type { VectorTable } from './vectorTables.ts';

/** `memories`, `pinned`, the histograms and oldest/newest count live rows; `deleted` is the trash. */
export async function readUserStats(
  client: FireboltQueryClient,
  vectorTables: readonly VectorTable[],
  userId: string,
): Promise<StoreUserStats> {
  const user = [userId];
  const embeddedSql = vectorTables.length
    ? `SELECT COUNT(*) AS n FROM (${vectorTables.map((t) => `SELECT user_id, memory_id FROM ${sqlIdentifier(t.table)} WHERE user_id = $1`).join(' UNION ALL ')}) v
       JOIN fml_memories m ON m.user_id = v.user_id AND m.memory_id = v.memory_id WHERE m.deleted_at IS NULL`
    : null;
  const count = async (sql: string): Promise<number> => Number((await client.query(sql, user)).rows[0]?.n ?? 0);
  const histogram = async (column: 'memory_category' | 'memory_subtype'): Promise<Record<string, number>> => {
    const { rows } = await client.query(
      `SELECT ${column} AS k, COUNT(*) AS n FROM fml_memories WHERE user_id = $1 AND deleted_at IS NULL GROUP BY ${column} ORDER BY ${column}`,
      user,
    );
    return Object.fromEntries(rows.map((row) => [storedText(row.k, 'k'), Number(row.n)]));
  };
  const edge = async (direction: 'ASC' | 'DESC'): Promise<string | null> => {
    const { rows } = await client.query(
      `SELECT created_at FROM fml_memories WHERE user_id = $1 AND deleted_at IS NULL ORDER BY created_at ${direction} LIMIT 1`,
      user,
    );
    return rows.length ? storedText(rows[0].created_at, 'created_at') : null;
  };
  const [
    memories,
    deleted,
    pinned,
    byCategory,
    bySubtype,
    sessions,
    workingItems,
    accessLog,
    embedded,
    oldest,
    newest,
  ] = await Promise.all([
    count('SELECT COUNT(*) AS n FROM fml_memories WHERE user_id = $1 AND deleted_at IS NULL'),
    count('SELECT COUNT(*) AS n FROM fml_memories WHERE user_id = $1 AND deleted_at IS NOT NULL'),
    count('SELECT COUNT(*) AS n FROM fml_memories WHERE user_id = $1 AND deleted_at IS NULL AND pinned = TRUE'),
    histogram('memory_category'),
    histogram('memory_subtype'),
    count('SELECT COUNT(*) AS n FROM fml_sessions WHERE user_id = $1'),
    count('SELECT COUNT(*) AS n FROM fml_working_items WHERE user_id = $1'),
    count('SELECT COUNT(*) AS n FROM fml_access_log WHERE user_id = $1'),
    embeddedSql ? count(embeddedSql) : Promise.resolve(0),
    edge('ASC'),
    edge('DESC'),
  ]);
  return {
    memories,
    deleted,
    pinned,
    by_category: byCategory,
    by_subtype: bySubtype,
    sessions,
    working_items: workingItems,
    access_log_entries: accessLog,
    embedded,
    oldest,
    newest,
    storage_bytes: null,
  };
}
