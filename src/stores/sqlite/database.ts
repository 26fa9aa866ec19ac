import type { Database, SqliteModule } from './sqliteModule.ts';
import { isBusyError } from './sqliteErrors.ts';

/**
 * SQLite's own busy handler waits synchronously, which blocks the event loop of the host
 * (the VS Code extension host, say), so it is kept short; `retryWhileBusy` then keeps trying
 * asynchronously up to WRITE_DEADLINE_MS before reporting the failure.
 */
export const BUSY_TIMEOUT_MS = 1_000;
export const WRITE_DEADLINE_MS = 15_000;

export function openDatabase(sqlite: SqliteModule, path: string): Database {
  const db = new sqlite.DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // WAL lets one writer and many readers from several processes share the file.
    db.exec('PRAGMA journal_mode = WAL');
    // With WAL, NORMAL syncs at checkpoints rather than at every commit. A commit is in the WAL
    // file (OS page cache) before COMMIT returns, so an acknowledged write survives SIGKILL or a
    // crash of this process; only an OS crash or power loss can drop the last few commits, and
    // never corrupts the file. FULL would fsync on every access-count bump, which recall does
    // on every call.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA temp_store = MEMORY');
    // Deleted rows and freed pages are overwritten with zeros, so erased text (forget_all, hard
    // deletes) is not left readable in the file's free space (issue 13.5).
    db.exec('PRAGMA secure_delete = ON');
    // 32 MB page cache (default 2 MB): vector reranks read a few hundred scattered BLOBs per query.
    db.exec('PRAGMA cache_size = -32768');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * BEGIN IMMEDIATE takes the write lock up front: a deferred transaction that reads first and
 * writes later can fail with SQLITE_BUSY without waiting when another process committed between.
 */
export function inWriteTransaction<T>(db: Database, work: () => T): T {
  return inTransaction(db, 'BEGIN IMMEDIATE', work);
}

/**
 * One read transaction around a synchronous read: every statement in it sees the same snapshot,
 * and the WAL read lock (a pair of fcntl calls on the shared-memory file) is taken once rather
 * than once per statement. Writing inside it is not possible; nested calls join the open one.
 */
export function inReadTransaction<T>(db: Database, work: () => T): T {
  return db.isTransaction ? work() : inTransaction(db, 'BEGIN', work);
}

function inTransaction<T>(db: Database, begin: 'BEGIN' | 'BEGIN IMMEDIATE', work: () => T): T {
  db.exec(begin);
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    // SQLite rolls back by itself on some errors (SQLITE_FULL, for one); a second ROLLBACK would
    // then fail and hide the original error.
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

export async function retryWhileBusy<T>(attempt: () => T): Promise<T> {
  const startedAt = Date.now();
  try {
    return attempt();
  } catch (error) {
    return retryAfterBusy(attempt, error, startedAt);
  }
}

/**
 * The waits and attempts of `retryWhileBusy` after a first attempt, begun at `startedAt`, failed
 * with `error` (rethrown when it is not SQLITE_BUSY): for a caller that made that attempt itself.
 */
export async function retryAfterBusy<T>(attempt: () => T, error: unknown, startedAt: number): Promise<T> {
  const deadline = startedAt + WRITE_DEADLINE_MS;
  let delayMs = 5;
  let failure = error;
  for (;;) {
    if (!isBusyError(failure) || Date.now() + delayMs > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, delayMs + Math.random() * delayMs));
    delayMs = Math.min(delayMs * 2, 250);
    try {
      return attempt();
    } catch (next) {
      failure = next;
    }
  }
}
