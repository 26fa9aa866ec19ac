import type { Database } from './sqliteModule.ts';
import { inReadTransaction } from './database.ts';
import type { StatementCache } from './statementCache.ts';
import type { WalIndexHeader } from './walIndexHeader.ts';
import { storedChoice, storedNullableText, storedNumber, storedRow, storedText } from '../common/storedValues.ts';

/**
 * upsert: row (or its vector) changed; delete: row gone; touch: only access_count/last_accessed
 * changed; drop_user: every row of the user is gone.
 */
const CHANGE_OPS = ['upsert', 'delete', 'touch', 'drop_user'] as const;
export type ChangeOp = (typeof CHANGE_OPS)[number];
const storedChangeOp = storedChoice(CHANGE_OPS);

export interface ChangeEntry {
  seq: number;
  user_id: string;
  memory_id: string | null;
  op: ChangeOp;
}

export type CatchUp = { kind: 'current' } | { kind: 'changes'; changes: ChangeEntry[] } | { kind: 'reset' };

export interface ChangeLogRetention {
  /** Rows kept behind the newest; a process that fell further behind rebuilds its caches. */
  keepRows: number;
  /** This process trims after this many of its own appends. */
  trimEvery: number;
}

export const DEFAULT_RETENTION: ChangeLogRetention = { keepRows: 20_000, trimEvery: 500 };

const TRIMMED_KEY = 'change_log_trimmed_through';

/**
 * How this process learns about memory writes of other processes sharing the file. Every memory
 * write appends a change_log row in its own transaction; before using in-memory state, `catchUp`
 * compares PRAGMA data_version (which moves only when another connection commits) and, if it
 * moved, returns the log rows after the last seq this process has applied. `quietSinceCatchUp`
 * says, from the WAL index header alone (walIndexHeader.ts), that nobody committed since the
 * last catch-up, so a read can skip it.
 */
export class ChangeFeed {
  private readonly db: Database;
  private readonly sql: StatementCache;
  private lastSeq = 0;
  private lastDataVersion = -1;
  private appendsSinceTrim = 0;
  private readonly retention: ChangeLogRetention;
  private readonly header: WalIndexHeader | null;
  /** The WAL index header read just before the last catch-up's snapshot; null when there is none to trust. */
  private headerAtCatchUp: Buffer | null = null;

  constructor(
    db: Database,
    sql: StatementCache,
    retention: ChangeLogRetention = DEFAULT_RETENTION,
    header: WalIndexHeader | null = null,
  ) {
    this.db = db;
    this.sql = sql;
    this.retention = retention;
    this.header = header;
  }

  /**
   * True when no connection (this one included) committed since the last catch-up, told by one
   * read of the WAL index header: the caches then hold what a catch-up would give them. False
   * whenever that cannot be told (no header, a commit, a header being rewritten).
   */
  quietSinceCatchUp(): boolean {
    return this.header !== null && this.headerAtCatchUp !== null && this.header.matches(this.headerAtCatchUp);
  }

  /**
   * The last catch-up ran in a transaction whose snapshot an earlier statement may have taken, so
   * the header read before its data_version may be newer than what it saw: the next read catches up.
   */
  distrustHeader(): void {
    this.headerAtCatchUp = null;
  }

  /** Forgets the header it reads (the connection is closing). */
  close(): void {
    this.headerAtCatchUp = null;
    this.header?.close();
  }

  /** Called at open, before any cache exists: everything logged so far is already reflected. */
  start(): void {
    this.lastDataVersion = this.dataVersion();
    this.lastSeq = this.maxSeq();
  }

  dataVersion(): number {
    return storedNumber(
      storedRow(this.sql.get('PRAGMA data_version').get(), 'PRAGMA data_version').data_version,
      'data_version',
    );
  }

  /**
   * The seq through which this process's in-memory state reflects the log: every row at or below
   * it is in the caches a search reads. Read without touching the file.
   */
  appliedSeq(): number {
    return this.lastSeq;
  }

  maxSeq(): number {
    const row = storedRow(this.sql.get('SELECT COALESCE(MAX(seq), 0) AS seq FROM change_log').get(), 'MAX(seq)');
    return storedNumber(row.seq, 'seq');
  }

  /**
   * The change log rows other processes committed since the last catch-up. The version and the
   * rows are read in one read transaction (the caller's, when it has one open), so a concurrent
   * trim cannot delete rows between the two reads and both describe the same snapshot.
   */
  catchUp(): CatchUp {
    return inReadTransaction(this.db, () => {
      // Read before data_version takes the snapshot, so the snapshot holds at least every commit
      // this header describes: while it reads the same, what this catch-up saw is still current.
      // The read of the check that sent the read here is such a read: no second pread for it.
      const header = this.header?.lastRead() ?? null;
      this.headerAtCatchUp = null;
      const version = this.dataVersion();
      if (version === this.lastDataVersion) {
        this.headerAtCatchUp = header;
        return { kind: 'current' };
      }
      const trimmedThrough = this.trimmedThrough();
      if (this.lastSeq < trimmedThrough) {
        this.lastSeq = this.maxSeq();
        this.lastDataVersion = version;
        this.headerAtCatchUp = header;
        return { kind: 'reset' };
      }
      const changes = this.sql
        .get('SELECT seq, user_id, memory_id, op FROM change_log WHERE seq > ? ORDER BY seq')
        .all(this.lastSeq)
        .map((row) => ({
          seq: Number(row.seq),
          user_id: storedText(row.user_id, 'user_id'),
          memory_id: storedNullableText(row.memory_id, 'memory_id'),
          op: storedChangeOp(row.op, 'op'),
        }));
      if (changes.length > 0) this.lastSeq = changes[changes.length - 1].seq;
      this.lastDataVersion = version;
      this.headerAtCatchUp = header;
      return { kind: 'changes', changes };
    });
  }

  /**
   * Inside a write transaction: true when no other process committed since the last catch-up,
   * so after this commit the process may mark its own log rows as applied (see `markApplied`).
   */
  inStepWithFile(): boolean {
    return this.dataVersion() === this.lastDataVersion;
  }

  /** Inside a write transaction; returns the new row's seq. */
  append(userId: string, memoryId: string | null, op: ChangeOp): number {
    const result = this.sql
      .get('INSERT INTO change_log (user_id, memory_id, op) VALUES (?, ?, ?)')
      .run(userId, memoryId, op);
    this.appendsSinceTrim++;
    if (this.appendsSinceTrim >= this.retention.trimEvery) this.trim();
    return Number(result.lastInsertRowid);
  }

  /**
   * One user's log rows after `seq`, for bringing a persisted index up to date (and for checking
   * that nothing was erased since it was made); null when the log was trimmed past `seq`, so the
   * rows in between are unknown. Call inside a transaction, so they match the caller's snapshot.
   */
  changesOfUserSince(userId: string, seq: number): ChangeEntry[] | null {
    if (seq < this.trimmedThrough()) return null;
    return this.sql
      .get('SELECT seq, user_id, memory_id, op FROM change_log WHERE seq > ? AND user_id = ? ORDER BY seq')
      .all(seq, userId)
      .map((row) => ({
        seq: Number(row.seq),
        user_id: storedText(row.user_id, 'user_id'),
        memory_id: storedNullableText(row.memory_id, 'memory_id'),
        op: storedChangeOp(row.op, 'op'),
      }));
  }

  /** After a commit made while `inStepWithFile()` was true: its rows are already applied in memory. */
  markApplied(seq: number): void {
    if (seq > this.lastSeq) this.lastSeq = seq;
  }

  private trimmedThrough(): number {
    const row = this.sql.get('SELECT value FROM store_meta WHERE key = ?').get(TRIMMED_KEY) as
      { value: string } | undefined;
    return row === undefined ? 0 : Number(row.value);
  }

  private trim(): void {
    this.appendsSinceTrim = 0;
    const through = this.maxSeq() - this.retention.keepRows;
    if (through <= this.trimmedThrough()) return;
    this.sql.get('DELETE FROM change_log WHERE seq <= ?').run(through);
    this.sql
      .get('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(TRIMMED_KEY, String(through));
  }
}
