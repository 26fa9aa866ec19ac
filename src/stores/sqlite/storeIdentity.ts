import { randomUUID } from 'node:crypto';
import { inWriteTransaction } from './database.ts';
import type { Database } from './sqliteModule.ts';

const STORE_ID_KEY = 'store_id';

/**
 * A random id given to a database file when it is first opened, kept in store_meta. Persisted
 * indexes carry it, so an index made from another file (a data directory deleted and recreated,
 * a file copied in) is never taken for this file's, whatever its change-log position says.
 */
export function ensureStoreId(db: Database): string {
  const read = (): string | undefined =>
    (db.prepare('SELECT value FROM store_meta WHERE key = ?').get(STORE_ID_KEY) as { value: string } | undefined)
      ?.value;
  const existing = read();
  if (existing !== undefined) return existing;
  return inWriteTransaction(db, () => {
    db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(
      STORE_ID_KEY,
      randomUUID(),
    );
    return read()!;
  });
}
