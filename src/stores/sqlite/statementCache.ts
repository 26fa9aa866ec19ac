import type { Database, Statement } from './sqliteModule.ts';

/** Prepares each SQL text once per connection; hot paths (recall, access bumps) reuse them. */
export class StatementCache {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();
  /** Statements handed out so far: a read that moved it ran SQL (and so took a snapshot of the file). */
  handedOut = 0;

  constructor(db: Database) {
    this.db = db;
  }

  get(sql: string): Statement {
    this.handedOut++;
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
