import type { DatabaseSync } from 'node:sqlite';
import { parseTypeName, typeName } from './fireboltTypes.ts';
import type { FireboltType } from './fireboltTypes.ts';
import type { VectorIndexInfo } from './expressionRewriter.ts';

export interface CatalogColumn {
  type: FireboltType;
  nullable: boolean;
}

/**
 * The Firebolt view of the schema, kept in tables inside each SQLite file so it commits and
 * rolls back together with the data: column types (for `meta`), primary indexes, HNSW indexes.
 */
export const CATALOG_DDL = [
  'CREATE TABLE IF NOT EXISTS __fb_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, position INTEGER NOT NULL, type_name TEXT NOT NULL, nullable INTEGER NOT NULL, PRIMARY KEY (table_name, column_name))',
  'CREATE TABLE IF NOT EXISTS __fb_tables (table_name TEXT PRIMARY KEY, primary_index TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS __fb_vector_indexes (index_name TEXT PRIMARY KEY, table_name TEXT NOT NULL, column_name TEXT NOT NULL, metric TEXT NOT NULL, dimension INTEGER NOT NULL)',
];

export function columnType(db: DatabaseSync, table: string, column: string): CatalogColumn | undefined {
  const row = db
    .prepare('SELECT type_name, nullable FROM __fb_columns WHERE table_name = ? AND column_name = ?')
    .get(table, column) as { type_name: string; nullable: bigint } | undefined;
  return row ? { type: parseTypeName(row.type_name), nullable: row.nullable === 1n } : undefined;
}

export function tableExists(db: DatabaseSync, table: string): boolean {
  return db.prepare('SELECT 1 FROM __fb_tables WHERE table_name = ?').get(table) !== undefined;
}

export function recordTable(
  db: DatabaseSync,
  table: string,
  columns: ReadonlyArray<{ name: string; type: FireboltType; nullable: boolean }>,
  primaryIndex: readonly string[],
): void {
  db.prepare('INSERT INTO __fb_tables (table_name, primary_index) VALUES (?, ?)').run(
    table,
    JSON.stringify(primaryIndex),
  );
  const insert = db.prepare(
    'INSERT INTO __fb_columns (table_name, column_name, position, type_name, nullable) VALUES (?, ?, ?, ?, ?)',
  );
  columns.forEach((column, position) =>
    insert.run(table, column.name, position, typeName(column.type), column.nullable ? 1 : 0),
  );
}

export function recordColumn(
  db: DatabaseSync,
  table: string,
  column: { name: string; type: FireboltType; nullable: boolean },
): void {
  const row = db
    .prepare('SELECT COALESCE(MAX(position), -1) + 1 AS next FROM __fb_columns WHERE table_name = ?')
    .get(table) as { next: bigint | number };
  db.prepare(
    'INSERT INTO __fb_columns (table_name, column_name, position, type_name, nullable) VALUES (?, ?, ?, ?, ?)',
  ).run(table, column.name, Number(row.next), typeName(column.type), column.nullable ? 1 : 0);
}

export function forgetTable(db: DatabaseSync, table: string): void {
  for (const sql of [
    'DELETE FROM __fb_tables WHERE table_name = ?',
    'DELETE FROM __fb_columns WHERE table_name = ?',
    'DELETE FROM __fb_vector_indexes WHERE table_name = ?',
  ]) {
    db.prepare(sql).run(table);
  }
}

export function vectorIndex(db: DatabaseSync, name: string): (VectorIndexInfo & { dimension: number }) | undefined {
  const row = db
    .prepare('SELECT table_name, column_name, metric, dimension FROM __fb_vector_indexes WHERE index_name = ?')
    .get(name) as
    { table_name: string; column_name: string; metric: VectorIndexInfo['metric']; dimension: bigint } | undefined;
  return row
    ? { table: row.table_name, column: row.column_name, metric: row.metric, dimension: Number(row.dimension) }
    : undefined;
}
