import type { WorkingItemRecord } from '../../core/domain/records.ts';
import type { WorkingChange } from '../../core/ports/memoryStore.ts';
import { LruCache } from '../../core/util/lruCache.ts';
import { sessionRowOf, type SessionRow } from './rowMapping.ts';

/**
 * What is kept, least recently used session dropped first; a dropped session is read from SQLite
 * again on next use. A server may hold thousands of small sessions at once (one per agent
 * conversation), while a full session holds 8,000 tokens by default: the token bound keeps the
 * text held to about 16 MB either way.
 */
export const MAX_SESSIONS = 10_000;
export const MAX_TOKENS_HELD = 4_000_000;

/**
 * The items of recently used sessions, in the store's order (sequence_num, item_id), and their
 * session rows. Every working-memory call reads its whole session: without this, each call turned
 * every row back into an object and parsed its metadata, some 100–200 KB of garbage per call at
 * the default budget, and read the session's row again. Records are frozen because every caller
 * shares them; callers get their own array. Session rows are kept as SQLite returns them, so each
 * caller parses its own record from one, as from a read.
 *
 * Kept in step by the store: its own commits are applied here after they commit, and any commit
 * of another process (PRAGMA data_version moved) empties the cache before the next read.
 */
export class WorkingItemCache {
  private readonly sessions = new LruCache<string, readonly WorkingItemRecord[]>({
    maxEntries: MAX_SESSIONS,
    maxWeight: MAX_TOKENS_HELD,
    weigh: (_sessionId, items) => tokensOf(items),
  });
  private readonly sessionRows = new LruCache<string, SessionRow>({ maxEntries: MAX_SESSIONS });

  /** The session's row as last read or committed; undefined when not held (or not found when read). */
  sessionRow(sessionId: string): SessionRow | undefined {
    return this.sessionRows.get(sessionId);
  }

  /** A session row as read from SQLite inside the read transaction that saw it. */
  rememberSessionRow(sessionId: string, row: SessionRow | undefined): SessionRow | undefined {
    if (row !== undefined) this.sessionRows.set(sessionId, row);
    return row;
  }

  get(sessionId: string): WorkingItemRecord[] | undefined {
    return this.sessions.get(sessionId)?.slice();
  }

  /** Items as read from SQLite inside the read transaction that saw them. */
  remember(sessionId: string, items: WorkingItemRecord[]): WorkingItemRecord[] {
    // Fresh from their rows, so nobody else holds them yet.
    for (const item of items) Object.freeze(Object.freeze(item).metadata);
    this.sessions.set(sessionId, items);
    return items.slice();
  }

  /** After `change` committed. A session not held stays unheld: its next read sees the file. */
  apply(change: WorkingChange): void {
    const sessionId = change.session.session_id;
    // The commit wrote every column of the row from this record (the upsert refuses another user's id).
    this.sessionRows.set(sessionId, sessionRowOf(change.session));
    const items = this.sessions.get(sessionId);
    if (items === undefined) return;
    const replaced = new Set([...change.delete, ...change.upsert.map((item) => item.item_id)]);
    // Copies: the committed records still belong to the caller.
    const next = [...items.filter((item) => !replaced.has(item.item_id)), ...change.upsert.map(frozenCopy)];
    next.sort(storeOrder);
    this.sessions.set(sessionId, next);
  }

  /** After the session was deleted. */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.sessionRows.delete(sessionId);
  }

  clear(): void {
    this.sessions.clear();
    this.sessionRows.clear();
  }
}

function tokensOf(items: readonly WorkingItemRecord[]): number {
  let total = 0;
  for (const item of items) total += item.token_count;
  return total;
}

function frozenCopy(item: WorkingItemRecord): WorkingItemRecord {
  return Object.freeze({ ...item, metadata: Object.freeze({ ...item.metadata }) });
}

/** ORDER BY sequence_num, item_id, as readWorkingItems sorts them; items of a session do not share a sequence number. */
function storeOrder(a: WorkingItemRecord, b: WorkingItemRecord): number {
  return a.sequence_num - b.sequence_num || (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0);
}
