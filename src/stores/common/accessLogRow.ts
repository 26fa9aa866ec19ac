import type { AccessLogEntry } from '../../core/domain/records.ts';

/**
 * One access-log row as both stores read it back (SQLite's memory_access_log, Firebolt's
 * fml_access_log): the same columns, so one decoding. A driver may hand back an absent nullable
 * column as undefined and a REAL/DOUBLE as a string; both come out as the entry's null and number.
 */
export function decodeAccessLogRow(row: Record<string, unknown>): AccessLogEntry {
  return {
    access_id: row.access_id as string,
    memory_id: row.memory_id as string,
    session_id: (row.session_id as string | null | undefined) ?? null,
    user_id: row.user_id as string,
    query_text: (row.query_text as string | null | undefined) ?? null,
    similarity_score:
      row.similarity_score === null || row.similarity_score === undefined ? null : Number(row.similarity_score),
    tool: row.tool as string,
    accessed_at: row.accessed_at as string,
  };
}
