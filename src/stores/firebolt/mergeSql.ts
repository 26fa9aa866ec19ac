import type { SqlParams } from './sqlParams.ts';

/**
 * One MERGE for a batch of records: the source is a UNION ALL of parameter rows, matched on
 * `keys`; matched rows get every other column, unmatched rows are inserted. Records repeating a
 * key keep only the last one: Firebolt, like Postgres, refuses a source that matches one target
 * row twice. Every `$n` carries its column's cast (recordRows.ts).
 */
export function upsertSql<R>(
  table: string,
  columns: readonly { name: string; cast: string; encode(record: R): unknown }[],
  records: readonly R[],
  keys: readonly string[],
  params: SqlParams,
): string {
  const source = lastPerKey(records, columns, keys)
    .map(
      (record) =>
        `SELECT ${columns.map((column) => `${params.add(column.encode(record) as never)}${column.cast} AS ${column.name}`).join(', ')}`,
    )
    .join(' UNION ALL ');
  const on = keys.map((key) => `t.${key} = s.${key}`).join(' AND ');
  const updates = columns
    .filter((column) => !keys.includes(column.name))
    .map((column) => `${column.name} = s.${column.name}`);
  const names = columns.map((column) => column.name);
  return `MERGE INTO ${table} AS t USING (${source}) AS s ON ${on}
    WHEN MATCHED THEN UPDATE SET ${updates.join(', ')}
    WHEN NOT MATCHED THEN INSERT (${names.join(', ')}) VALUES (${names.map((name) => `s.${name}`).join(', ')})`;
}

/** The records with duplicate keys removed, the last occurrence winning, in first-seen order. */
export function lastPerKey<R>(
  records: readonly R[],
  columns: readonly { name: string; encode(record: R): unknown }[],
  keys: readonly string[],
): R[] {
  const keyColumns = keys.map((key) => columns.find((column) => column.name === key)!);
  const byKey = new Map<string, R>();
  for (const record of records) {
    const key = JSON.stringify(keyColumns.map((column) => column.encode(record)));
    byKey.delete(key);
    byKey.set(key, record);
  }
  return [...byKey.values()];
}
