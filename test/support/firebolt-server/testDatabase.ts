import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import {
  CATALOG_DDL,
  columnType,
  forgetTable,
  recordColumn,
  recordTable,
  tableExists,
  vectorIndex,
} from './catalog.ts';
import { inferType, parseTypeName, sqliteType, typeName } from './fireboltTypes.ts';
import type { QueryResult, ResultColumn, StatementOutcome } from './queryResult.ts';
import { FireboltServerError } from './serverErrors.ts';
import { registerFireboltFunctions } from './sqlFunctions.ts';
import type { StatementPlan } from './statementPlan.ts';
import { quoteIdentifier, quoteString, tokenize } from './sqlTokens.ts';

/** An idle explicit transaction is rolled back after this long, so a crashed client cannot hold the write lock forever. */
const TRANSACTION_IDLE_MS = 60_000;

interface OpenTransaction {
  db: DatabaseSync;
  sequence: number;
  timer: NodeJS.Timeout;
  /** Why the transaction failed; an aborted transaction refuses everything but ROLLBACK, as Firebolt's does. */
  aborted: string | null;
}

const ABORTED = 'current transaction is aborted, commands will be ignored until execution of ROLLBACK';
/** Cloud's wording for a COMMIT refused by a conflict (JDBC TransactionTest). */
const COMMIT_CONFLICT =
  "Failed to commit transaction, error: 'detected 1 conflicts with 1 transactions on transaction commit'";

function openConnection(file: string, computedTypes: Map<string, string>): DatabaseSync {
  const db = new DatabaseSync(file, { readBigInts: true });
  // WAL gives every explicit transaction its own snapshot; busy_timeout 0 turns a second
  // concurrent writer into an immediate conflict instead of blocking the event loop.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 0; PRAGMA case_sensitive_like = ON;');
  registerFireboltFunctions(db, computedTypes);
  return db;
}

/** One Firebolt database backed by one SQLite file. */
export class FireboltTestDatabase {
  readonly name: string;
  readonly file: string;
  readonly #main: DatabaseSync;
  readonly #transactions = new Map<string, OpenTransaction>();
  /** Texts produced by fb_array/fb_cast in the current statement, with their Firebolt type. */
  readonly #computedTypes = new Map<string, string>();

  constructor(name: string, file: string) {
    this.name = name;
    this.file = file;
    this.#main = openConnection(file, this.#computedTypes);
    for (const ddl of CATALOG_DDL) this.#main.exec(ddl);
  }

  vectorIndex(name: string) {
    return vectorIndex(this.#main, name);
  }

  close(): void {
    for (const [id, transaction] of this.#transactions) this.#endTransaction(id, transaction, 'ROLLBACK');
    this.#main.close();
  }

  hasColumn(table: string, column: string): boolean {
    return columnType(this.#main, table, column) !== undefined;
  }

  /** Whether the table has a row, as the given transaction (or autocommit) sees it. */
  hasRows(table: string, transactionId: string | undefined): boolean {
    const db = (transactionId === undefined ? undefined : this.#transactions.get(transactionId)?.db) ?? this.#main;
    return tableExists(db, table) && db.prepare(`SELECT 1 FROM ${quoteIdentifier(table)} LIMIT 1`).get() !== undefined;
  }

  /** Explicit transactions still open (committed, rolled back and timed-out ones are gone). */
  get openTransactions(): number {
    return this.#transactions.size;
  }

  /**
   * Runs a plan. `commitFault` (a status such as 409) makes a COMMIT fail as a conflict would:
   * the transaction stays open and aborted until ROLLBACK.
   */
  execute(
    plan: StatementPlan,
    params: readonly unknown[],
    transactionId: string | undefined,
    commitFault?: number,
  ): StatementOutcome {
    const transaction = transactionId === undefined ? undefined : this.#transactions.get(transactionId);
    if (transactionId !== undefined && transaction === undefined) {
      throw new FireboltServerError(
        400,
        'TransactionError',
        `transaction ${transactionId} does not exist (it was committed, rolled back or timed out)`,
      );
    }
    if (plan.kind === 'begin') {
      if (transaction)
        throw new FireboltServerError(400, 'TransactionError', 'cannot BEGIN: a transaction is already in progress');
      return this.#begin();
    }
    if (plan.kind === 'commit' || plan.kind === 'rollback') {
      if (!transaction)
        throw new FireboltServerError(
          400,
          'TransactionError',
          `cannot ${plan.kind.toUpperCase()}: no transaction in progress`,
        );
      const removed = { 'Firebolt-Remove-Parameters': 'transaction_id,transaction_sequence_id' };
      if (plan.kind === 'rollback') {
        this.#endTransaction(transactionId!, transaction, 'ROLLBACK');
        return { result: null, headers: removed, rowsRead: 0 };
      }
      if (transaction.aborted !== null)
        throw new FireboltServerError(400, 'TransactionAborted', `${ABORTED} (${transaction.aborted})`);
      if (commitFault !== undefined) {
        transaction.aborted = COMMIT_CONFLICT;
        throw new FireboltServerError(commitFault, 'TransactionConflict', COMMIT_CONFLICT);
      }
      try {
        transaction.db.exec('COMMIT');
      } catch (error) {
        // The engine keeps a transaction whose COMMIT failed open (aborted) until the client sends ROLLBACK.
        const mapped = mapSqliteError(error);
        transaction.aborted = mapped instanceof Error ? mapped.message : String(mapped);
        throw mapped;
      }
      this.#endTransaction(transactionId!, transaction, null);
      return { result: null, headers: removed, rowsRead: 0 };
    }
    if (transaction?.aborted)
      throw new FireboltServerError(400, 'TransactionAborted', `${ABORTED} (${transaction.aborted})`);
    const db = transaction ? transaction.db : this.#main;
    this.#computedTypes.clear();
    let result: QueryResult | null;
    try {
      result = this.#inSavepoint(db, () => this.#run(db, plan, params));
    } catch (error) {
      // A failed statement aborts the whole explicit transaction (Firebolt, like Postgres).
      if (transaction) transaction.aborted = error instanceof Error ? error.message : String(error);
      throw error;
    }
    const headers: Record<string, string> = {};
    if (transaction) {
      transaction.sequence += 1;
      transaction.timer.refresh();
      headers['Firebolt-Update-Parameters'] = `transaction_sequence_id=${transaction.sequence}`;
    }
    return { result, headers, rowsRead: result?.rows.length ?? 0 };
  }

  #begin(): StatementOutcome {
    const id = randomUUID().replaceAll('-', '');
    const db = openConnection(this.file, this.#computedTypes);
    db.exec('BEGIN');
    const timer = setTimeout(() => {
      const open = this.#transactions.get(id);
      if (open) this.#endTransaction(id, open, 'ROLLBACK');
    }, TRANSACTION_IDLE_MS);
    timer.unref();
    this.#transactions.set(id, { db, sequence: 0, timer, aborted: null });
    return {
      result: null,
      headers: { 'Firebolt-Update-Parameters': `transaction_id=${id},transaction_sequence_id=0` },
      rowsRead: 0,
    };
  }

  /** `how` null: the caller already committed on the transaction's connection. */
  #endTransaction(id: string, transaction: OpenTransaction, how: 'ROLLBACK' | null): void {
    clearTimeout(transaction.timer);
    this.#transactions.delete(id);
    try {
      if (how) transaction.db.exec(how);
    } catch (error) {
      throw mapSqliteError(error);
    } finally {
      transaction.db.close();
    }
  }

  #inSavepoint<T>(db: DatabaseSync, work: () => T): T {
    db.exec('SAVEPOINT fb_statement');
    try {
      const value = work();
      db.exec('RELEASE fb_statement');
      return value;
    } catch (error) {
      db.exec('ROLLBACK TO fb_statement; RELEASE fb_statement');
      throw mapSqliteError(error);
    }
  }

  #run(db: DatabaseSync, plan: StatementPlan, params: readonly unknown[]): QueryResult | null {
    switch (plan.kind) {
      case 'createTable':
        return this.#createTable(db, plan);
      case 'addColumn':
        return this.#addColumn(db, plan);
      case 'dropTable':
        if (!tableExists(db, plan.table)) {
          if (plan.ifExists) return null;
          throw new FireboltServerError(400, 'UnknownTable', `table "${plan.table}" does not exist`);
        }
        db.exec(`DROP TABLE ${quoteIdentifier(plan.table)}`);
        forgetTable(db, plan.table);
        return null;
      case 'createVectorIndex':
        return this.#createVectorIndex(db, plan);
      case 'dropIndex': {
        if (!vectorIndex(db, plan.name)) {
          if (plan.ifExists) return null;
          throw new FireboltServerError(400, 'UnknownIndex', `index "${plan.name}" does not exist`);
        }
        db.prepare('DELETE FROM __fb_vector_indexes WHERE index_name = ?').run(plan.name);
        for (const suffix of ['insert', 'update'])
          db.exec(`DROP TRIGGER IF EXISTS ${quoteIdentifier(`__fb_dimension_${plan.name}_${suffix}`)}`);
        return null;
      }
      case 'sql':
        return this.#runSql(db, plan.statements, params);
      default:
        throw new FireboltServerError(400, 'UnsupportedSyntax', `statement ${plan.kind} cannot run inside a database`);
    }
  }

  #createTable(db: DatabaseSync, plan: Extract<StatementPlan, { kind: 'createTable' }>): null {
    if (plan.table.startsWith('__fb'))
      throw new FireboltServerError(
        400,
        'InvalidName',
        'table names starting with __fb are reserved by the test server',
      );
    if (tableExists(db, plan.table)) {
      if (plan.ifNotExists) return null;
      throw new FireboltServerError(400, 'TableExists', `table "${plan.table}" already exists`);
    }
    const columns = plan.columns.map((column) => {
      const name = quoteIdentifier(column.name);
      const parts = [name, sqliteType(column.type)];
      if (!column.nullable) parts.push('NOT NULL');
      if (column.defaultSql !== null) parts.push(`DEFAULT (${column.defaultSql})`);
      parts.push(`CHECK (fb_check(${name}, ${quoteString(typeName(column.type))}))`);
      return parts.join(' ');
    });
    db.exec(`CREATE TABLE ${quoteIdentifier(plan.table)} (${columns.join(', ')})`);
    // Firebolt's primary index makes lookups on its leading columns cheap; a plain SQLite index on the
    // same columns does that here, so a filtered DELETE or lookup is not a full scan (which made large
    // benchmark loads quadratic). It enforces nothing, like Firebolt's.
    if (plan.primaryIndex.length > 0) {
      db.exec(
        `CREATE INDEX ${quoteIdentifier(`__fb_primary_${plan.table}`)} ON ${quoteIdentifier(plan.table)} (${plan.primaryIndex.map(quoteIdentifier).join(', ')})`,
      );
    }
    recordTable(db, plan.table, plan.columns, plan.primaryIndex);
    return null;
  }

  #addColumn(db: DatabaseSync, plan: Extract<StatementPlan, { kind: 'addColumn' }>): null {
    if (!tableExists(db, plan.table))
      throw new FireboltServerError(400, 'UnknownTable', `table "${plan.table}" does not exist`);
    const { column } = plan;
    if (columnType(db, plan.table, column.name)) {
      if (plan.ifNotExists) return null;
      throw new FireboltServerError(
        400,
        'ColumnExists',
        `column "${column.name}" of table "${plan.table}" already exists`,
      );
    }
    if (!column.nullable && column.defaultSql === null) {
      throw new FireboltServerError(400, 'InvalidColumn', `a NOT NULL column added to a table needs a DEFAULT`);
    }
    const name = quoteIdentifier(column.name);
    const parts = [name, sqliteType(column.type)];
    if (!column.nullable) parts.push('NOT NULL');
    if (column.defaultSql !== null) parts.push(`DEFAULT (${column.defaultSql})`);
    parts.push(`CHECK (fb_check(${name}, ${quoteString(typeName(column.type))}))`);
    db.exec(`ALTER TABLE ${quoteIdentifier(plan.table)} ADD COLUMN ${parts.join(' ')}`);
    recordColumn(db, plan.table, column);
    return null;
  }

  #createVectorIndex(db: DatabaseSync, plan: Extract<StatementPlan, { kind: 'createVectorIndex' }>): null {
    if (vectorIndex(db, plan.name)) {
      if (plan.ifNotExists) return null;
      throw new FireboltServerError(400, 'IndexExists', `index "${plan.name}" already exists`);
    }
    const column = columnType(db, plan.table, plan.column);
    if (!column)
      throw new FireboltServerError(
        400,
        'UnknownColumn',
        `column "${plan.column}" of table "${plan.table}" does not exist`,
      );
    const type = column.type;
    const vectorShaped =
      type.base === 'array' &&
      !type.elementNullable &&
      (type.element.base === 'real' || type.element.base === 'double');
    if (!vectorShaped || column.nullable) {
      throw new FireboltServerError(
        400,
        'InvalidIndex',
        'HNSW indexes need an ARRAY(REAL NOT NULL) NOT NULL or ARRAY(DOUBLE NOT NULL) NOT NULL column',
      );
    }
    if (db.prepare(`SELECT 1 FROM ${quoteIdentifier(plan.table)} LIMIT 1`).get() !== undefined) {
      throw new FireboltServerError(400, 'InvalidIndex', 'a vector search index must be created on an empty table');
    }
    db.prepare(
      'INSERT INTO __fb_vector_indexes (index_name, table_name, column_name, metric, dimension) VALUES (?, ?, ?, ?, ?)',
    ).run(plan.name, plan.table, plan.column, plan.metric, plan.dimension);
    const message = quoteString(`vector dimension does not match index ${plan.name} (dimension = ${plan.dimension})`);
    const check = `WHEN array_length(NEW.${quoteIdentifier(plan.column)}) <> ${plan.dimension} BEGIN SELECT RAISE(ABORT, ${message}); END`;
    db.exec(
      `CREATE TRIGGER ${quoteIdentifier(`__fb_dimension_${plan.name}_insert`)} BEFORE INSERT ON ${quoteIdentifier(plan.table)} ${check}`,
    );
    db.exec(
      `CREATE TRIGGER ${quoteIdentifier(`__fb_dimension_${plan.name}_update`)} BEFORE UPDATE OF ${quoteIdentifier(plan.column)} ON ${quoteIdentifier(plan.table)} ${check}`,
    );
    return null;
  }

  #runSql(db: DatabaseSync, statements: readonly string[], params: readonly unknown[]): QueryResult | null {
    let result: QueryResult | null = null;
    for (const [position, sql] of statements.entries()) {
      const statement = db.prepare(sql);
      const count = parameterCount(sql);
      if (count > params.length)
        throw new FireboltServerError(
          400,
          'MissingParameter',
          `query parameter $${count} was not provided in query_parameters`,
        );
      const args = params.slice(0, count) as never[];
      // Only the last statement of a plan answers; earlier row-returning ones are checks (MERGE's duplicate-key test).
      if (statement.columns().length > 0 && position < statements.length - 1) {
        statement.all(...args);
      } else if (statement.columns().length > 0) {
        statement.setReturnArrays(true);
        result = describe(db, statement, statement.all(...args) as unknown as unknown[][], this.#computedTypes);
      } else {
        statement.run(...args);
      }
    }
    return result;
  }
}

function parameterCount(sql: string): number {
  let max = 0;
  const tokens = tokenize(sql);
  tokens.forEach((token, index) => {
    const next = tokens[index + 1];
    if (token.kind === 'op' && token.text === '?' && next?.kind === 'number') max = Math.max(max, Number(next.text));
  });
  return max;
}

function describe(
  db: DatabaseSync,
  statement: StatementSync,
  rows: unknown[][],
  computedTypes: ReadonlyMap<string, string>,
): QueryResult {
  const columns: ResultColumn[] = statement.columns().map((column, index) => {
    const known = column.table && column.column ? columnType(db, column.table, column.column) : undefined;
    if (known) return { name: column.name, ...known };
    const values = rows.map((row) => row[index]);
    const present = values.filter((value) => value !== null);
    const computed = present.length > 0 && typeof present[0] === 'string' ? computedTypes.get(present[0]) : undefined;
    if (computed && present.every((value) => computedTypes.get(value as string) === computed)) {
      return { name: column.name, type: parseTypeName(computed), nullable: present.length < values.length };
    }
    return { name: column.name, ...inferType(values) };
  });
  return { columns, rows };
}

/** SQLite failures become Firebolt-shaped errors; a busy database is a write conflict. */
function mapSqliteError(error: unknown): unknown {
  if (error instanceof FireboltServerError) return error;
  if (error instanceof Error) {
    const code = (error as { errcode?: number }).errcode;
    if (code === 5 || code === 6 || /database is locked/u.test(error.message)) {
      return new FireboltServerError(
        409,
        'TransactionConflict',
        'write conflict: another transaction is writing to this database; retry the statement',
      );
    }
    return new FireboltServerError(400, 'ExecutionError', error.message);
  }
  return error;
}
