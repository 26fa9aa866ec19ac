import type { AccessLogEntry } from '../../core/domain/records.ts';
import { storedNullableText, storedText } from './storedValues.ts';

/**
 * One access-log row as both stores read it back (SQLite's memory_access_log, Firebolt's
 * fml_access_log): the same columns, so one decoding. A driver may hand back an absent nullable
 * column as undefined and a REAL/DOUBLE as a string; both come out as the entry's null and number.
 * Every other column is checked (storedValues.ts): a damaged row is PROVIDER_ERROR naming it.
 */
export function decodeAccessLogRow(row: Record<string, unknown>): AccessLogEntry {
  return {
    access_id: storedText(row.access_id, 'access_id'),
    memory_id: storedText(row.memory_id, 'memory_id'),
    session_id: storedNullableText(row.session_id ?? null, 'session_id'),
    user_id: storedText(row.user_id, 'user_id'),
    query_text: storedNullableText(row.query_text ?? null, 'query_text'),
    similarity_score:
      row.similarity_score === null || row.similarity_score === undefined ? null : Number(row.similarity_score),
    tool: storedText(row.tool, 'tool'),
    accessed_at: storedText(row.accessed_at, 'accessed_at'),
  };
}
