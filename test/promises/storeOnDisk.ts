import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * What an embedded store holds on disk, read without the store's code: promises about what is
 * stored (redaction, erasure) are checked here, not by the API that makes them.
 */

/** The persisted index files kept beside the database (every user's, temporary ones included). */
export function indexFilePaths(dbPath: string): string[] {
  const dir = `${dbPath}-indexes`;
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

/** Every file kept for the database: the main file, its WAL and shared-memory index, and the persisted indexes. */
export function storeFileBytes(dbPath: string): Buffer {
  const sqliteFiles = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`].filter((path) =>
    existsSync(path),
  );
  return Buffer.concat([...sqliteFiles, ...indexFilePaths(dbPath)].map((path) => readFileSync(path)));
}

/** True when `needle` occurs in `bytes` as UTF-8 or as UTF-16LE (how persisted indexes hold strings). */
export function bytesContainText(bytes: Buffer, needle: string): boolean {
  return bytes.includes(Buffer.from(needle, 'utf8')) || bytes.includes(Buffer.from(needle, 'utf16le'));
}

/** True when `needle` occurs in the store's files (database and persisted indexes) as UTF-8 or UTF-16LE bytes. */
export function bytesOnDiskContain(dbPath: string, needle: string): boolean {
  return bytesContainText(storeFileBytes(dbPath), needle);
}

/** The bytes of the persisted index files only. */
export function indexFileBytes(dbPath: string): Buffer {
  return Buffer.concat(indexFilePaths(dbPath).map((path) => readFileSync(path)));
}

/** `table.column` of every row, in every table of the file, whose text contains `needle`. */
export function cellsContaining(dbPath: string, needle: string): string[] {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string }>;
    const hits: string[] = [];
    for (const { name } of tables) {
      const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as Array<{ name: string }>;
      for (const column of columns) {
        const row = db
          .prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE CAST("${column.name}" AS TEXT) LIKE ? ESCAPE '\\'`)
          .get(`%${needle.replace(/[%_\\]/g, '\\$&')}%`) as { n: number };
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
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string }>;
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as Array<{ name: string }>).map(
        (entry) => entry.name,
      );
      if (!columns.includes(column)) continue;
      counts[name] = Number(
        (db.prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE "${column}" = ?`).get(value) as { n: number }).n,
      );
    }
    return counts;
  } finally {
    db.close();
  }
}
