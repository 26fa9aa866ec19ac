import type { Database, Statement } from './sqliteModule.ts';

/** Prepares each SQL text once per connection; hot paths (recall, access bumps) reuse them. */
export class StatementCache {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();
  /** Statements handed out so far: a read that moved it ran SQL (and so took a snapshot of the file). */
  handedOut = 0;
  /** A read waits for its first statement to open its transaction (deferredRead). */
  #beginOnNext = false;

  constructor(db: Database) {
    this.db = db;
  }

  /**
   * Runs a synchronous read whose transaction (a plain BEGIN) opens just before its first statement
   * and commits after it; a read that runs no SQL (the caches answered it) opens none. A deferred
   * BEGIN takes its snapshot at the first statement anyway, so the statements see what they would
   * inside an eager one. `work` must not open transactions of its own.
   */
  deferredRead<T>(work: () => T): T {
    this.#beginOnNext = true;
    try {
      const result = work();
      if (this.db.isTransaction) this.db.exec('COMMIT');
      return result;
    } catch (error) {
      // As inTransaction: SQLite may have rolled back already (SQLITE_FULL, say).
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.#beginOnNext = false;
    }
  }

  get(sql: string): Statement {
    if (this.#beginOnNext) {
      this.#beginOnNext = false;
      if (!this.db.isTransaction) this.db.exec('BEGIN');
    }
    this.handedOut++;
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
