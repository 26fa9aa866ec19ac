import type { Database, Statement } from './sqliteModule.ts';

/** Prepares each SQL text once per connection; hot paths (recall, access bumps) reuse them. */
export class StatementCache {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
  }

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
