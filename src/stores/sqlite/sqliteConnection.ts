import { createPrivateFile, makeDataDirPrivate } from './filePermissions.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import type { StoreHealth } from '../../core/ports/memoryStore.ts';
import { ChangeFeed } from './changeFeed.ts';
import type { ChangeLogRetention } from './changeFeed.ts';
import { inReadTransaction, openDatabase, retryAfterBusy, retryWhileBusy } from './database.ts';
import { GroupCommit, type GroupCommitHooks, type WriteLane } from './groupCommit.ts';
import { LATEST_SCHEMA_VERSION, runMigrations } from './migrations.ts';
import { isDirectoryWritable, toMemoryError } from './sqliteErrors.ts';
import { loadNodeSqlite } from './sqliteModule.ts';
import type { Database } from './sqliteModule.ts';
import { StatementCache } from './statementCache.ts';
import { ensureStoreId } from './storeIdentity.ts';
import { WalCheckpointer } from './walCheckpointer.ts';
import { WalIndexHeader } from './walIndexHeader.ts';

/** An open database with what every transaction uses. */
export interface Connection {
  db: Database;
  sql: StatementCache;
  feed: ChangeFeed;
  checkpointer: WalCheckpointer;
}

/** What the connection asks of the caches it serves, so they stay in step with the file. */
export interface ConnectionCaches {
  /** Inside every read transaction, before the read: apply other processes' commits (otherProcessChanges.ts). */
  catchUp(connection: Connection): void;
  /** A commit stands but its cache update failed: drop every cache, to be rebuilt from SQLite on next use. */
  dropAll(): void;
}

export interface SqliteConnectionOptions {
  dataDir: string;
  path: string;
  retention: ChangeLogRetention | undefined;
  log: Logger;
  caches: ConnectionCaches;
}

/**
 * The store's connection to its SQLite file: opening it (private permissions, migrations, store
 * id), read transactions that first catch up with other processes, and writes queued for the
 * group commit. Every failure reaches callers as a typed MemoryError.
 */
export class SqliteConnection {
  private readonly dataDir: string;
  private readonly path: string;
  private readonly retention: ChangeLogRetention | undefined;
  private readonly log: Logger;
  private readonly caches: ConnectionCaches;
  private current: Connection | null = null;
  /** Commits of this process; other processes' commits move PRAGMA data_version instead. */
  private localCommitCount = 0;
  private readonly commits = new GroupCommit(() => this.require('commit').db, this.groupCommitHooks());
  private storeIdValue = '';
  /** Reads run again because a commit came between their quiet check and their snapshot (for tests). */
  snapshotsOvertaken = 0;

  constructor(options: SqliteConnectionOptions) {
    this.dataDir = options.dataDir;
    this.path = options.path;
    this.retention = options.retention;
    this.log = options.log;
    this.caches = options.caches;
  }

  get isOpen(): boolean {
    return this.current !== null;
  }

  /** The database handle; throws the typed not-open error when closed. */
  get db(): Database {
    return this.require('db').db;
  }

  /** The store's persistent identity (storeIdentity.ts); empty until opened. */
  get storeId(): string {
    return this.storeIdValue;
  }

  get localCommits(): number {
    return this.localCommitCount;
  }

  async connect(): Promise<void> {
    if (this.current !== null) return;
    const sqlite = loadNodeSqlite();
    let db: Database | null = null;
    try {
      makeDataDirPrivate(this.dataDir, (count, dir) =>
        this.log.warn(`made ${count} file(s) and folder(s) in ${dir} private to this user (0700 / 0600)`),
      );
      if (!isDirectoryWritable(this.dataDir)) {
        throw new MemoryError(
          'STORAGE_READ_ONLY',
          `The memory data directory ${this.dataDir} is not writable; SQLite needs to create its journal files there. Fix its permissions or choose another data directory.`,
          {
            operation: 'open',
            details: { data_dir: this.dataDir },
          },
        );
      }
      createPrivateFile(this.path);
      const opened = await retryWhileBusy(() => openDatabase(sqlite, this.path));
      db = opened;
      await retryWhileBusy(() => runMigrations(opened));
      this.storeIdValue = await retryWhileBusy(() => ensureStoreId(opened));
      const sql = new StatementCache(opened);
      // After the migrations' reads: the -shm file is there and this connection maps it.
      const feed = new ChangeFeed(opened, sql, this.retention, WalIndexHeader.open(this.path));
      feed.start();
      this.current = { db: opened, sql, feed, checkpointer: new WalCheckpointer(opened, this.path, this.log) };
    } catch (error) {
      db?.close();
      throw toMemoryError(error, 'open', this.dataDir);
    }
  }

  /** Settles every queued write: writes asked for before a close commit (or fail) first. */
  async drain(): Promise<void> {
    if (this.current !== null) await this.commits.drain();
  }

  async disconnect(): Promise<void> {
    const connection = this.current;
    this.current = null;
    await connection?.checkpointer.close();
    connection?.feed.close();
    connection?.db.close();
  }

  async health(): Promise<StoreHealth> {
    const started = performance.now();
    if (this.current === null)
      return { status: 'unhealthy', latency_ms: 0, detail: `SQLite store at ${this.path} is not open.` };
    try {
      const { sql } = this.current;
      const mode = sql.get('PRAGMA journal_mode').get() as { journal_mode: string };
      const latency_ms = performance.now() - started;
      const status = mode.journal_mode === 'wal' ? 'healthy' : 'degraded';
      return {
        status,
        latency_ms,
        detail: `SQLite ${this.path} (schema ${LATEST_SCHEMA_VERSION}, journal ${mode.journal_mode})`,
      };
    } catch (error) {
      const typed = toMemoryError(error, 'health', this.dataDir);
      return { status: 'unhealthy', latency_ms: performance.now() - started, detail: typed.message };
    }
  }

  require(operation: string): Connection {
    if (this.current === null) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        `SQLite store at ${this.path} is not open; call open() before ${operation}.`,
        { operation },
      );
    }
    return this.current;
  }

  /**
   * Reads see other processes' memory writes: the change log is applied first, in the same read
   * transaction as the read itself, so both see one snapshot of the file. When the WAL index
   * header says nobody committed since the last catch-up, the catch-up (and the WAL read lock its
   * PRAGMA takes) is skipped; should the read's own SQL then have taken a snapshot after a commit
   * that slipped in meanwhile, the read runs again, caught up.
   */
  async read<T>(operation: string, work: (connection: Connection) => T): Promise<T> {
    const connection = this.require(operation);
    const attempt = (): T => (this.readOnce(connection, work) ?? this.readCaughtUp(connection, work)).value;
    const startedAt = Date.now();
    try {
      // The first attempt outside retryWhileBusy's async frame, which only a busy file needs.
      try {
        return attempt();
      } catch (error) {
        return await retryAfterBusy(attempt, error, startedAt);
      }
    } catch (error) {
      throw toMemoryError(error, operation, this.dataDir);
    }
  }

  /** The read without a catch-up; null when a commit may have come between the check and the read's snapshot. */
  private readOnce<T>(connection: Connection, work: (connection: Connection) => T): { value: T } | null {
    if (connection.db.isTransaction || !connection.feed.quietSinceCatchUp()) return this.readCaughtUp(connection, work);
    // Most reads are answered by the caches alone: their transaction opens only if they run SQL.
    return connection.sql.deferredRead(() => {
      const statements = connection.sql.handedOut;
      const value = work(connection);
      // Without SQL no snapshot was taken; with it, an unchanged header means nobody committed
      // between the check and that snapshot, so the caches and the rows describe the same file.
      if (connection.sql.handedOut !== statements && !connection.feed.quietSinceCatchUp()) {
        this.snapshotsOvertaken++;
        return null;
      }
      return { value };
    });
  }

  private readCaughtUp<T>(connection: Connection, work: (connection: Connection) => T): { value: T } {
    const joined = connection.db.isTransaction;
    return inReadTransaction(connection.db, () => {
      this.caches.catchUp(connection);
      if (joined) connection.feed.distrustHeader();
      return { value: work(connection) };
    });
  }

  /**
   * Queues a write for the next group commit (groupCommit.ts); `afterCommit` then updates this
   * process's caches. Commit and cache updates run in the same synchronous turn, so no read of
   * this process can observe the file and caches out of step.
   */
  write<T>(
    operation: string,
    work: (connection: Connection) => T,
    afterCommit?: () => void,
    lane: WriteLane = 'request',
  ): Promise<T> {
    let connection: Connection;
    try {
      connection = this.require(operation);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.commits.write(operation, () => work(connection), afterCommit, lane);
  }

  /** How the group commit's transactions keep the change feed and caches in step with the file. */
  private groupCommitHooks(): GroupCommitHooks {
    let inStep = false;
    let appliedThrough: number | null = null;
    return {
      begin: () => {
        inStep = this.require('commit').feed.inStepWithFile();
        appliedThrough = null;
      },
      end: () => {
        // Under the write lock the newest log rows are this transaction's own.
        if (inStep) appliedThrough = this.require('commit').feed.maxSeq();
      },
      committed: () => {
        const connection = this.require('commit');
        this.localCommitCount++;
        connection.checkpointer.noteCommit();
        if (appliedThrough !== null) connection.feed.markApplied(appliedThrough);
      },
      // The commit stands, so the write must not be retried; caches that may have missed it are
      // dropped and rebuilt from SQLite on next use.
      afterCommitFailed: () => this.caches.dropAll(),
      mapError: (error, operation) => toMemoryError(error, operation, this.dataDir),
    };
  }
}
