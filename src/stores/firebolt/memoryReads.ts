import type { MemoryRecord } from '../../core/domain/records.ts';
import type { ListQuery, ListResult } from '../../core/ports/memoryStore.ts';
import { chunks } from './chunks.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import type { TransactionScope } from './queryClient.ts';
import { MEMORY_COLUMNS, columnNames, memoryFromRow } from './recordRows.ts';
import { sqlIdentifier, sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';
import type { VectorTable } from './vectorTables.ts';

/** Reading memories on Firebolt: by id, a filtered page, and those without an embedding. */

/** IN lists are chunked so the parameters in the query string stay small. */
const IDS_PER_QUERY = 200;

const SORT_ORDER: Record<ListQuery['sort'], string> = {
  created: 'm.created_at DESC, m.memory_id ASC',
  recency: 'm.last_accessed DESC, m.created_at DESC, m.memory_id ASC',
  importance: 'm.importance DESC, m.created_at DESC, m.memory_id ASC',
  access_count: 'm.access_count DESC, m.created_at DESC, m.memory_id ASC',
};

export async function readMemories(
  scope: TransactionScope,
  userId: string,
  memoryIds: readonly string[],
): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await scope.query(
      `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
      params.values,
    );
    out.push(...rows.map(memoryFromRow));
  }
  return out;
}

export async function readMemoryPage(scope: TransactionScope, query: ListQuery): Promise<ListResult> {
  const params = new SqlParams();
  const where = memoryFilterSql(query.filter, params, 'm');
  const offset = Math.max(0, Math.floor(query.offset));
  const limit = Math.max(0, Math.floor(query.limit));
  const [page, count] = await Promise.all([
    limit === 0
      ? Promise.resolve({ rows: [] })
      : scope.query(
          `SELECT ${columnNames(MEMORY_COLUMNS, 'm.')} FROM fml_memories m WHERE ${where} ORDER BY ${SORT_ORDER[query.sort]} LIMIT ${sqlLiteral(limit)} OFFSET ${sqlLiteral(offset)}`,
          params.values,
        ),
    scope.query(`SELECT COUNT(*) AS total FROM fml_memories m WHERE ${where}`, params.values),
  ]);
  return { items: page.rows.map(memoryFromRow), total: Number(count.rows[0]?.total ?? 0) };
}

/** Live memories with no vector of `model` in any vector table, oldest first. */
export async function readUnembedded(
  scope: TransactionScope,
  tables: readonly VectorTable[],
  userId: string | null,
  model: string,
  limit: number,
): Promise<MemoryRecord[]> {
  if (limit <= 0) return [];
  const params = new SqlParams();
  const modelParam = params.add(model);
  const vectors = tables
    .map((table) => `SELECT user_id, memory_id FROM ${sqlIdentifier(table.table)} WHERE model = ${modelParam}`)
    .join(' UNION ALL ');
  const join = vectors ? `LEFT JOIN (${vectors}) v ON v.user_id = m.user_id AND v.memory_id = m.memory_id` : '';
  const conditions = [
    'm.deleted_at IS NULL',
    ...(vectors ? ['v.memory_id IS NULL'] : []),
    ...(userId === null ? [] : [`m.user_id = ${params.add(userId)}`]),
  ];
  const { rows } = await scope.query(
    `SELECT ${columnNames(MEMORY_COLUMNS, 'm.')} FROM fml_memories m ${join} WHERE ${conditions.join(' AND ')} ORDER BY m.created_at ASC, m.memory_id ASC LIMIT ${sqlLiteral(Math.floor(limit))}`,
    params.values,
  );
  return rows.map(memoryFromRow);
}
