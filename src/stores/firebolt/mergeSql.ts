import type { SqlParams } from './sqlParams.ts';

/**
 * One MERGE for a batch of records: the source is a UNION ALL of parameter rows, matched on
 * `keys`; matched rows get every other column, unmatched rows are inserted.
 */
export function upsertSql<R>(
  table: string,
  columns: readonly { name: string; cast: string; encode(record: R): unknown }[],
  records: readonly R[],
  keys: readonly string[],
  params: SqlParams,
): string {
  const source = records
    .map((record) => `SELECT ${columns.map((column) => `${params.add(column.encode(record) as never)}${column.cast} AS ${column.name}`).join(', ')}`)
    .join(' UNION ALL ');
  const on = keys.map((key) => `t.${key} = s.${key}`).join(' AND ');
  const updates = columns.filter((column) => !keys.includes(column.name)).map((column) => `${column.name} = s.${column.name}`);
  const names = columns.map((column) => column.name);
  return `MERGE INTO ${table} AS t USING (${source}) AS s ON ${on}
    WHEN MATCHED THEN UPDATE SET ${updates.join(', ')}
    WHEN NOT MATCHED THEN INSERT (${names.join(', ')}) VALUES (${names.map((name) => `s.${name}`).join(', ')})`;
}
