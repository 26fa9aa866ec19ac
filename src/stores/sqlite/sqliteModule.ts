import type * as NodeSqlite from 'node:sqlite';
import { MemoryError } from '../../core/domain/errors.ts';

export type SqliteModule = typeof NodeSqlite;
export type Database = NodeSqlite.DatabaseSync;
export type Statement = NodeSqlite.StatementSync;

/**
 * `node:sqlite` is loaded at run time rather than imported, so that a host running an older
 * Node (some editor forks) gets a typed configuration error instead of a module-load crash.
 */
export function loadNodeSqlite(): SqliteModule {
  const loaded = process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined;
  if (!loaded) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `The embedded store needs node:sqlite, available in Node.js 22.13 or later (24 recommended); this runtime is Node.js ${process.versions.node}. Run with a newer Node or configure the Firebolt backend.`,
      { operation: 'open', details: { node_version: process.versions.node, required: '>=22.13' } },
    );
  }
  return loaded;
}
