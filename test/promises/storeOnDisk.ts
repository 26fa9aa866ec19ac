import { existsSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/**
 * What an embedded store holds on disk, read without the store's code: promises about what is
 * stored (redaction, erasure) are checked here, not by the API that makes them.
 */

/** Every file SQLite keeps for the database: the main file, its WAL and its shared-memory index. */
export function storeFileBytes(dbPath: string): Buffer {
  return Buffer.concat([dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
}

/** True when `needle` occurs in the database files as UTF-8 bytes. */
export function bytesOnDiskContain(dbPath: string, needle: string): boolean {
  return storeFileBytes(dbPath).includes(Buffer.from(needle, 'utf8'));
}

/** `table.column` of every row, in every table of the file, whose text contains `needle`. */
export function cellsContaining(dbPath: string, needle: string): string[] {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
    const hits: string[] = [];
    for (const { name } of tables) {
      const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as Array<{ name: string }>;
      for (const column of columns) {
        const row = db.prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE CAST("${column.name}" AS TEXT) LIKE ? ESCAPE '\\'`).get(`%${needle.replace(/[%_\\]/g, '\\$&')}%`) as { n: number };
        if (Number(row.n) > 0) hits.push(`${name}.${column.name}`);
      }
    }
    return hits;
  } finally {
    db.close();
  }
}

/** Rows per table whose `column` equals `value`, for every table that has that column. */
export function rowsWith(dbPath: string, column: string, value: string): Record<string, number> {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as Array<{ name: string }>).map((entry) => entry.name);
      if (!columns.includes(column)) continue;
      counts[name] = Number((db.prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE "${column}" = ?`).get(value) as { n: number }).n);
    }
    return counts;
  } finally {
    db.close();
  }
}
