import type { AccessLogEntry } from '../../core/domain/records.ts';
import { decodeAccessLogRow } from '../common/accessLogRow.ts';
import type { FireboltQueryClient, TransactionScope } from './queryClient.ts';
import { ACCESS_LOG_COLUMNS, columnNames, valuePlaceholders } from './recordRows.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { chunks } from './chunks.ts';
import { batchesByEncodedSize } from './requestTarget.ts';
import { SqlParams } from './sqlParams.ts';

const IDS_PER_QUERY = 200;
const ROWS_PER_INSERT = 50;

/**
 * Appends access-log rows and bumps access_count / last_accessed, in one transaction. Entries
 * whose memory does not belong to the entry's user are dropped, so nobody can log against
 * (or inflate) another user's memory.
 */
export async function recordAccessRows(
  client: FireboltQueryClient,
  write: (work: (tx: TransactionScope) => Promise<void>) => Promise<void>,
  entries: readonly AccessLogEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const owned = await ownedMemories(client, entries);
  const accepted = entries.filter((entry) => owned.has(ownerKey(entry.user_id, entry.memory_id)));
  if (accepted.length === 0) return;
  const bumps = new Map<string, { user_id: string; memory_id: string; count: number; latest: string }>();
  for (const entry of accepted) {
    const key = ownerKey(entry.user_id, entry.memory_id);
    const bump = bumps.get(key) ?? {
      user_id: entry.user_id,
      memory_id: entry.memory_id,
      count: 0,
      latest: entry.accessed_at,
    };
    bump.count += 1;
    if (Date.parse(entry.accessed_at) > Date.parse(bump.latest)) bump.latest = entry.accessed_at;
    bumps.set(key, bump);
  }
  await write(async (tx) => {
    for (const batch of batchesByEncodedSize(
      accepted,
      (entry) => ACCESS_LOG_COLUMNS.map((column) => column.encode(entry)),
      ROWS_PER_INSERT,
    )) {
      const params = new SqlParams();
      const rows = batch.map((entry) => `(${valuePlaceholders(ACCESS_LOG_COLUMNS, entry, (v) => params.add(v))})`);
      await tx.query(
        `INSERT INTO fml_access_log (${columnNames(ACCESS_LOG_COLUMNS)}) VALUES ${rows.join(', ')}`,
        params.values,
      );
    }
    // One UPDATE per (user, count, latest) instead of one per memory: a recall logs every returned
    // memory once at the same instant, so its whole batch is a single statement.
    const groups = new Map<string, { user_id: string; count: number; latest: string; ids: string[] }>();
    for (const bump of bumps.values()) {
      const key = JSON.stringify([bump.user_id, bump.count, bump.latest]);
      const group = groups.get(key) ?? { user_id: bump.user_id, count: bump.count, latest: bump.latest, ids: [] };
      group.ids.push(bump.memory_id);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      for (const batch of chunks(group.ids, IDS_PER_QUERY)) {
        const params = new SqlParams();
        const count = params.add(group.count);
        const latest = params.add(group.latest);
        await tx.query(
          `UPDATE fml_memories SET access_count = access_count + ${count}::BIGINT,
             last_accessed = CASE WHEN last_accessed < ${latest}::TIMESTAMPTZ THEN ${latest}::TIMESTAMPTZ ELSE last_accessed END
           WHERE user_id = ${params.add(group.user_id)} AND memory_id IN (${params.list(batch)})`,
          params.values,
        );
      }
    }
  });
}

async function ownedMemories(client: FireboltQueryClient, entries: readonly AccessLogEntry[]): Promise<Set<string>> {
  const owned = new Set<string>();
  const byUser = new Map<string, string[]>();
  for (const entry of entries) byUser.set(entry.user_id, [...(byUser.get(entry.user_id) ?? []), entry.memory_id]);
  for (const [userId, ids] of byUser) {
    for (const batch of chunks([...new Set(ids)], IDS_PER_QUERY)) {
      const params = new SqlParams();
      const { rows } = await client.query(
        `SELECT memory_id FROM fml_memories WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
        params.values,
      );
      for (const row of rows) owned.add(ownerKey(userId, row.memory_id as string));
    }
  }
  return owned;
}

function ownerKey(userId: string, memoryId: string): string {
  return JSON.stringify([userId, memoryId]);
}

/** A page of one user's access log, oldest first. */
export async function readAccessLog(
  client: FireboltQueryClient,
  userId: string,
  offset: number,
  limit: number,
): Promise<AccessLogEntry[]> {
  if (limit <= 0) return [];
  const { rows } = await client.query(
    `SELECT ${columnNames(ACCESS_LOG_COLUMNS)} FROM fml_access_log WHERE user_id = $1 ORDER BY accessed_at ASC, access_id ASC LIMIT ${sqlLiteral(Math.floor(limit))} OFFSET ${sqlLiteral(Math.max(0, Math.floor(offset)))}`,
    [userId],
  );
  return rows.map(decodeAccessLogRow);
}
