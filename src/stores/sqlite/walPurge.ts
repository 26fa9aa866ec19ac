import { MemoryError } from '../../core/domain/errors.ts';
import { WRITE_DEADLINE_MS } from './database.ts';
import type { Database } from './sqliteModule.ts';
import { isBusyError } from './sqliteErrors.ts';

/**
 * Erased rows leave the database file zeroed (secure_delete, openDatabase), but the WAL still
 * holds the page images written when the text was stored. A TRUNCATE checkpoint copies the WAL
 * into the file and empties it, so after an erasure no copy of the text is left on disk. Another
 * process reading an older snapshot blocks the reset; the checkpoint is retried until it is done.
 */
export async function purgeWal(db: Database): Promise<void> {
  const deadline = Date.now() + WRITE_DEADLINE_MS;
  let delayMs = 5;
  for (;;) {
    let complete = false;
    try {
      const result = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as {
        busy: number;
        log: number;
        checkpointed: number;
      };
      complete = result.busy === 0;
    } catch (error) {
      if (!isBusyError(error)) throw error;
    }
    if (complete) return;
    if (Date.now() + delayMs > deadline) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        'The data was erased, but another process kept the write-ahead log busy, so older copies may remain in it until its next checkpoint. Retry to finish.',
        {
          operation: 'purgeWal',
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 250);
  }
}
