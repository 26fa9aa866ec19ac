import type { AdjacentMemories, MemoryFilter } from '../../core/ports/memoryStore.ts';
import { storedText } from '../common/storedValues.ts';
import { chunks } from './chunks.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';

/** Recall asks for about 100 ids; larger lists are split so the query string stays small. */
const IDS_PER_QUERY = 200;
/** Storage order; memory_id breaks ties between processes whose clocks gave the same stored_seq. */
const STORAGE_ORDER = 'ORDER BY stored_seq, memory_id';
const RUNNING = `${STORAGE_ORDER} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`;

/**
 * For each id of the filter's user, the live memories that pass the filter and were stored
 * just before / after it (by `stored_seq`), nearest first, stopping at a conversation boundary
 * (another source_session, or a time gap over maxGapMs) as the port defines.
 *
 * One query per call instead of a walk per id: window functions number the user's live rows,
 * cut them into conversation segments (a new segment wherever the port's walk would stop) and
 * count the filter-passing rows cumulatively. A window is then "the nearest `radius` passing
 * rows in the segment of the anchor's first neighbour", which equals the walk: the boundary is
 * judged on every live row, the filter only picks which rows are returned.
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
  for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await client.query(adjacencySql(filter, batch, perSide, maxGapMs, params), params.values);
    const ranked = new Map<string, { before: Array<[number, string]>; after: Array<[number, string]> }>();
    for (const row of rows) {
      const anchor = storedText(row.anchor_id, 'anchor_id');
      const window = ranked.get(anchor) ?? { before: [], after: [] };
      ranked.set(anchor, window);
      if (row.side === 'before') window.before.push([Number(row.seq_rank), storedText(row.memory_id, 'memory_id')]);
      else if (row.side === 'after') window.after.push([Number(row.seq_rank), storedText(row.memory_id, 'memory_id')]);
    }
    for (const [anchor, window] of ranked) {
      out.set(anchor, {
        before: window.before.sort((a, b) => b[0] - a[0]).map(([, id]) => id),
        after: window.after.sort((a, b) => a[0] - b[0]).map(([, id]) => id),
      });
    }
  }
  return out;
}

/**
 * Rows `(anchor_id, side, memory_id, seq_rank)`: one `anchor` row per known id (so an id with empty
 * windows is still reported), then its `before` / `after` neighbours with their running count
 * of passing rows as `seq_rank`, which orders them by storage position.
 */
function adjacencySql(
  filter: MemoryFilter,
  ids: readonly string[],
  perSide: number,
  maxGapMs: number,
  params: SqlParams,
): string {
  const passes = memoryFilterSql(filter, params, 'm');
  const user = params.add(filter.user_id);
  const anchorIds = params.list(ids);
  // An unbounded gap never splits a conversation; JSON has no Infinity to send as a parameter.
  const gap = Number.isFinite(maxGapMs) ? params.add(Math.floor(maxGapMs)) : null;
  // The port's walk stops between two consecutive live rows of different sessions or too far apart in time.
  const boundary = (session: string, at: string, otherSession: string, otherAt: string): string =>
    `(${session} IS DISTINCT FROM ${otherSession}${gap === null ? '' : ` OR ABS(DATE_DIFF('millisecond', ${at}, ${otherAt})) > ${gap}`})`;
  const between = (a: string, b: string): string =>
    boundary(`${a}.source_session`, `${a}.at_time`, `${b}.source_session`, `${b}.at_time`);
  // perSide is an integer the caller floored; a literal keeps the join conditions plain arithmetic.
  const span = sqlLiteral(perSide);
  return `WITH user_rows AS (
      SELECT m.memory_id AS memory_id, m.stored_seq AS stored_seq, m.source_session AS source_session,
             COALESCE(m.event_time, m.created_at) AS at_time,
             CASE WHEN m.deleted_at IS NULL THEN 1 ELSE 0 END AS is_live,
             CASE WHEN m.memory_id IN (${anchorIds}) THEN 1 ELSE 0 END AS is_anchor,
             CASE WHEN ${passes} THEN 1 ELSE 0 END AS passes
      FROM fml_memories m WHERE m.user_id = ${user}),
    ordered AS (
      SELECT memory_id, stored_seq, source_session, at_time, is_live, is_anchor, passes,
             SUM(is_live) OVER (${RUNNING}) - is_live AS below,
             LAG(source_session) OVER (PARTITION BY is_live ${STORAGE_ORDER}) AS prev_session,
             LAG(at_time) OVER (PARTITION BY is_live ${STORAGE_ORDER}) AS prev_at
      FROM user_rows WHERE is_live = 1 OR is_anchor = 1),
    seg AS (
      SELECT memory_id, source_session, at_time, passes, below + 1 AS pos,
             SUM(CASE WHEN prev_at IS NULL OR ${boundary('prev_session', 'prev_at', 'source_session', 'at_time')} THEN 1 ELSE 0 END) OVER (${RUNNING}) AS segment,
             SUM(passes) OVER (${RUNNING}) AS prank
      FROM ordered WHERE is_live = 1),
    anchors AS (
      SELECT memory_id, source_session, at_time, below, below + 1 + is_live AS above FROM ordered WHERE is_anchor = 1)
    SELECT a.memory_id AS anchor_id, 'anchor' AS side, a.memory_id AS memory_id, 0 AS seq_rank FROM anchors a
    UNION ALL
    SELECT a.memory_id, 'before', r.memory_id, r.prank
    FROM anchors a JOIN seg n ON n.pos = a.below
      JOIN seg r ON r.segment = n.segment AND r.passes = 1 AND r.prank <= n.prank AND r.prank > n.prank - ${span}
    WHERE NOT ${between('a', 'n')}
    UNION ALL
    SELECT a.memory_id, 'after', r.memory_id, r.prank
    FROM anchors a JOIN seg n ON n.pos = a.above
      JOIN seg r ON r.segment = n.segment AND r.passes = 1 AND r.prank > n.prank - n.passes AND r.prank <= n.prank - n.passes + ${span}
    WHERE NOT ${between('a', 'n')}`;
}
