import type { AdjacentMemories, MemoryFilter } from '../../core/ports/memoryStore.ts';
import { chunks } from './chunks.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';

const IDS_PER_QUERY = 200;

/**
 * For each id of the filter's user, the live memories that pass the filter and were stored
 * just before / after it (by `stored_seq`), nearest first. The filter runs in SQL, so rows it
 * rejects never take a slot of the window.
 */
export async function readAdjacentMemories(
  client: FireboltQueryClient,
  filter: MemoryFilter,
  memoryIds: readonly string[],
  radius: number,
): Promise<Map<string, AdjacentMemories>> {
  const out = new Map<string, AdjacentMemories>();
  const perSide = Math.floor(radius);
  if (perSide <= 0 || memoryIds.length === 0) return out;
  const anchors = new Map<string, number>();
  for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await client.query(
      `SELECT memory_id, stored_seq FROM fml_memories WHERE user_id = ${params.add(filter.user_id)} AND memory_id IN (${params.list(batch)})`,
      params.values,
    );
    for (const row of rows) anchors.set(row.memory_id as string, Number(row.stored_seq));
  }
  const side = async (anchor: number, direction: 'before' | 'after'): Promise<string[]> => {
    const params = new SqlParams();
    const where = memoryFilterSql(filter, params, 'm');
    const [comparison, order] = direction === 'before' ? ['<', 'DESC'] : ['>', 'ASC'];
    const { rows } = await client.query(
      `SELECT m.memory_id AS memory_id FROM fml_memories m
       WHERE ${where} AND m.deleted_at IS NULL AND m.stored_seq ${comparison} ${params.add(anchor)}
       ORDER BY m.stored_seq ${order}, m.memory_id ${order} LIMIT ${sqlLiteral(perSide)}`,
      params.values,
    );
    return rows.map((row) => row.memory_id as string);
  };
  for (const memoryId of new Set(memoryIds)) {
    const anchor = anchors.get(memoryId);
    if (anchor === undefined) continue;
    const [before, after] = await Promise.all([side(anchor, 'before'), side(anchor, 'after')]);
    out.set(memoryId, { before, after });
  }
  return out;
}
