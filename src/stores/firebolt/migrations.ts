import { MIGRATIONS, SCHEMA_VERSION_TABLE } from './schema.ts';
import type { FireboltQueryClient } from './queryClient.ts';

/**
 * Applies the migrations newer than the recorded version, in order. Every statement is
 * idempotent (IF NOT EXISTS), so a run interrupted between a statement and its version row
 * simply repeats. Returns the schema version now in place.
 */
export async function migrate(client: FireboltQueryClient): Promise<number> {
  await client.query(SCHEMA_VERSION_TABLE, [], { write: true, idempotent: true });
  const { rows } = await client.query('SELECT MAX(version) AS version FROM fml_schema_version');
  let current = Number(rows[0]?.version ?? 0);
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    for (const statement of migration.statements) await client.query(statement, [], { write: true, idempotent: true });
    await client.query(
      'INSERT INTO fml_schema_version (version, description, applied_at) VALUES ($1::INT, $2::TEXT, CURRENT_TIMESTAMP)',
      [migration.version, migration.description],
      {
        write: true,
        idempotent: false,
      },
    );
    current = migration.version;
  }
  return current;
}
