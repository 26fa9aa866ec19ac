import type { AdjacentMemories, MemoryFilter } from '../../core/ports/memoryStore.ts';
import { chunks } from './chunks.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';

const IDS_PER_QUERY = 200;
/** Rows read per side before the conversation boundary and the filter cut the window down. */
const OVERFETCH = 4;

interface Neighbour {
  memory_id: string;
  session: string | null;
  time: number;
  passes: boolean;
}

/**
 * For each id of the filter's user, the live memories that pass the filter and were stored
 * just before / after it (by `stored_seq`), nearest first, stopping at a conversation boundary
 * (another source_session, or a time gap over maxGapMs) as the port defines.
 */
export async function readAdjacentMemories(
  client: FireboltQueryClient,
  filter: MemoryFilter,
  memoryIds: readonly string[],
  radius: number,
  maxGapMs: number,
): Promise<Map<string, AdjacentMemories>> {
  const out = new Map<string, AdjacentMemories>();
  const perSide = Math.floor(radius);
  if (perSide <= 0 || memoryIds.length === 0) return out;
  const anchors = new Map<string, { seq: number; session: string | null; time: number }>();
  for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await client.query(
      `SELECT memory_id, stored_seq, source_session, COALESCE(event_time, created_at) AS at FROM fml_memories WHERE user_id = ${params.add(filter.user_id)} AND memory_id IN (${params.list(batch)})`,
      params.values,
    );
    for (const row of rows) anchors.set(row.memory_id as string, { seq: Number(row.stored_seq), session: (row.source_session as string | null) ?? null, time: Date.parse(String(row.at)) });
  }
  // The boundary is judged on every live row, the filter only decides which rows are returned.
  const side = async (anchor: number, direction: 'before' | 'after'): Promise<Neighbour[]> => {
    const params = new SqlParams();
    const passes = memoryFilterSql(filter, params, 'm');
    const userParam = params.add(filter.user_id);
    const [comparison, order] = direction === 'before' ? ['<', 'DESC'] : ['>', 'ASC'];
    const { rows } = await client.query(
      `SELECT m.memory_id AS memory_id, m.source_session AS source_session, COALESCE(m.event_time, m.created_at) AS at,
              CASE WHEN ${passes} THEN 1 ELSE 0 END AS passes
       FROM fml_memories m
       WHERE m.user_id = ${userParam} AND m.deleted_at IS NULL AND m.stored_seq ${comparison} ${params.add(anchor)}
       ORDER BY m.stored_seq ${order}, m.memory_id ${order} LIMIT ${sqlLiteral(perSide * OVERFETCH)}`,
      params.values,
    );
    return rows.map((row) => ({ memory_id: row.memory_id as string, session: (row.source_session as string | null) ?? null, time: Date.parse(String(row.at)), passes: Number(row.passes) === 1 }));
  };
  const cut = (anchor: { session: string | null; time: number }, rows: readonly Neighbour[]): string[] => {
    const found: string[] = [];
    let previous = anchor;
    for (const row of rows) {
      if (found.length >= perSide || row.session !== previous.session || Math.abs(row.time - previous.time) > maxGapMs) break;
      previous = row;
      if (row.passes) found.push(row.memory_id);
    }
    return found;
  };
  for (const memoryId of new Set(memoryIds)) {
    const anchor = anchors.get(memoryId);
    if (anchor === undefined) continue;
    const [before, after] = await Promise.all([side(anchor.seq, 'before'), side(anchor.seq, 'after')]);
    out.set(memoryId, { before: cut(anchor, before), after: cut(anchor, after) });
  }
  return out;
}
