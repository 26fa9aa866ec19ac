import type { FireboltType } from './fireboltTypes.ts';

export interface ResultColumn {
  name: string;
  type: FireboltType;
  nullable: boolean;
}

/** A result set in the server's stored representation, before it is rendered in an output format. */
export interface QueryResult {
  columns: ResultColumn[];
  rows: unknown[][];
}

/** What executing one statement produced, plus the session headers the response must carry. */
export interface StatementOutcome {
  result: QueryResult | null;
  headers: Record<string, string>;
  rowsRead: number;
}
