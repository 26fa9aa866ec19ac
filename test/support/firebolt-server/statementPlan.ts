import type { FireboltType } from './fireboltTypes.ts';

export interface ColumnDefinition {
  name: string;
  type: FireboltType;
  nullable: boolean;
  /** SQLite expression for DEFAULT, already translated. */
  defaultSql: string | null;
}

/** What one Firebolt statement turns into; the database executes plans, the translator builds them. */
export type StatementPlan =
  | { kind: 'createDatabase'; name: string; ifNotExists: boolean }
  | { kind: 'dropDatabase'; name: string; ifExists: boolean }
  | { kind: 'useDatabase'; name: string }
  | { kind: 'useEngine'; name: string }
  | { kind: 'begin' }
  | { kind: 'commit' }
  | { kind: 'rollback' }
  | { kind: 'createTable'; table: string; ifNotExists: boolean; columns: ColumnDefinition[]; primaryIndex: string[] }
  | { kind: 'dropTable'; table: string; ifExists: boolean }
  | { kind: 'addColumn'; table: string; ifNotExists: boolean; column: ColumnDefinition }
  | {
      kind: 'createVectorIndex';
      name: string;
      table: string;
      column: string;
      metric: 'cosine' | 'ip' | 'l2sq';
      dimension: number;
      ifNotExists: boolean;
    }
  | { kind: 'dropIndex'; name: string; ifExists: boolean }
  /** Plain SQLite statements run in order inside one savepoint; the last one may return rows. */
  | { kind: 'sql'; statements: string[] };
