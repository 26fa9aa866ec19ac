import type { AccessLogEntry } from '../../core/domain/records.ts';
import { decodeAccessLogRow } from '../common/accessLogRow.ts';
import type { StatementCache } from './statementCache.ts';

export interface AccessBump {
  user_id: string;
  memory_id: string;
  access_count: number;
  last_accessed: string;
}

/**
 * Call inside a write transaction. An entry for a memory the user does not own is skipped
 * (another user's id behaves as missing), and a repeated access_id is ignored so a retried
 * call does not count the same read twice. Returns the memories whose counters moved.
 *
 * Each memory's counters are bumped once per batch, by the number of its entries logged and to
 * the latest of their times: the state one bump per entry reached, with one UPDATE (a rewrite of
 * the memory's whole row) per memory rather than per entry; a flush holds several recalls, which
 * often return the same turns.
 */
export function recordAccessRows(sql: StatementCache, entries: readonly AccessLogEntry[]): AccessBump[] {
  const insert = sql.get(
    `INSERT OR IGNORE INTO memory_access_log (access_id, memory_id, session_id, user_id, query_text, similarity_score, tool, accessed_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
     WHERE EXISTS (SELECT 1 FROM long_term_memories WHERE memory_id = ?2 AND user_id = ?4)`,
  );
  const bump = sql.get(
    `UPDATE long_term_memories
     SET access_count = access_count + ?1, last_accessed = CASE WHEN ?2 > last_accessed THEN ?2 ELSE last_accessed END
     WHERE memory_id = ?3 AND user_id = ?4
     RETURNING access_count, last_accessed`,
  );
  // In the order each memory was first logged, as the bumps were applied one by one.
  const logged = new Map<string, { user_id: string; memory_id: string; count: number; latest: string }>();
  for (const entry of entries) {
    const inserted = insert.run(
      entry.access_id,
      entry.memory_id,
      entry.session_id,
      entry.user_id,
      entry.query_text,
      entry.similarity_score,
      entry.tool,
      entry.accessed_at,
    );
    if (Number(inserted.changes) === 0) continue;
    const key = `${entry.user_id}\u0000${entry.memory_id}`;
    const seen = logged.get(key);
    if (seen === undefined)
      logged.set(key, { user_id: entry.user_id, memory_id: entry.memory_id, count: 1, latest: entry.accessed_at });
    else {
      seen.count++;
      // The UPDATE compares the texts too; ISO times are ASCII, where its byte order and this agree.
      if (entry.accessed_at > seen.latest) seen.latest = entry.accessed_at;
    }
  }
  const bumped: AccessBump[] = [];
  for (const { user_id, memory_id, count, latest } of logged.values()) {
    const row = bump.get(count, latest, memory_id, user_id) as { access_count: number; last_accessed: string };
    bumped.push({ user_id, memory_id, access_count: Number(row.access_count), last_accessed: row.last_accessed });
  }
  return bumped;
}

export function readAccessLog(sql: StatementCache, userId: string, offset: number, limit: number): AccessLogEntry[] {
  const rows = sql
    .get(
      'SELECT access_id, memory_id, session_id, user_id, query_text, similarity_score, tool, accessed_at FROM memory_access_log WHERE user_id = ? ORDER BY accessed_at ASC, access_id ASC LIMIT ? OFFSET ?',
    )
    .all(userId, Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(offset))) as Array<Record<string, unknown>>;
  return rows.map(decodeAccessLogRow);
}

/** Users with memories, sessions or access-log rows. */
export function readUserIds(sql: StatementCache): string[] {
  const rows = sql
    .get(
      'SELECT user_id FROM long_term_memories UNION SELECT user_id FROM session_contexts UNION SELECT user_id FROM memory_access_log ORDER BY user_id',
    )
    .all() as Array<{ user_id: string }>;
  return rows.map((row) => row.user_id);
}
