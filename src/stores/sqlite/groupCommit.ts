import { retryWhileBusy } from './database.ts';
import type { Database } from './sqliteModule.ts';
import { isBusyError } from './sqliteErrors.ts';

/** One write waiting for its transaction. Settled only once the transaction's outcome is known. */
interface QueuedWrite {
  operation: string;
  work: () => unknown;
  afterCommit: (() => void) | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitHooks {
  /** Inside the transaction, before the first write (the change feed notes whether it is in step). */
  begin(): void;
  /** Inside the transaction, after the last write. */
  end(): void;
  /** After COMMIT, before any write's afterCommit. */
  committed(): void;
  /** An afterCommit threw: the commit stands, but caches may have missed it. */
  afterCommitFailed(): void;
  /** The typed error a caller of `operation` sees. */
  mapError(error: unknown, operation: string): unknown;
}

const SAVEPOINT = 'fml_group_write';

export type WriteLane = 'request' | 'background';

const MAX_BACKGROUND_PASSED_OVER = 8;

/**
 * Group commit: the writes of every request that arrived in one turn of the event loop share one
 * SQLite transaction. A commit costs the same few syscalls and WAL frame writes whether it holds
 * one write or ten (pages such as the change log's last leaf are written once, not ten times), and
 * under load the server commits far less often. Nothing is acknowledged early: a write's promise
 * settles only after the COMMIT that holds it returned, and each write runs in a savepoint, so one
 * write that fails is rolled back alone and the others still commit.
 */
export class GroupCommit {
  private readonly db: () => Database;
  private readonly hooks: GroupCommitHooks;
  /** Writes of requests, whose answers wait for the commit. */
  private pending: QueuedWrite[] = [];
  /** Bookkeeping no caller waits on (access log, cached analyses). */
  private background: QueuedWrite[] = [];
  /** Request transactions committed in a row while background writes waited. */
  private backgroundPassedOver = 0;
  private scheduled = false;
  private flushing: Promise<void> | null = null;

  constructor(db: () => Database, hooks: GroupCommitHooks) {
    this.db = db;
    this.hooks = hooks;
  }

  /** Queues `work` for the next transaction of its lane; resolves with its result once that transaction committed. */
  write<T>(operation: string, work: () => T, afterCommit?: () => void, lane: WriteLane = 'request'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue(lane).push({ operation, work, afterCommit, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Commits everything queued so far (store close). */
  async drain(): Promise<void> {
    while (this.flushing !== null || this.waiting()) {
      if (this.flushing === null) this.startFlush();
      await this.flushing;
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing !== null) return;
    this.scheduled = true;
    // setImmediate runs after the I/O callbacks of this turn: every request read in this turn has
    // queued its write by then. A lone write waits for no more than the rest of the turn.
    setImmediate(() => {
      this.scheduled = false;
      if (this.flushing === null && this.waiting()) this.startFlush();
    });
  }

  private queue(lane: WriteLane): QueuedWrite[] {
    return lane === 'request' ? this.pending : this.background;
  }

  private waiting(): boolean {
    return this.pending.length > 0 || this.background.length > 0;
  }

  /**
   * A request's answer waits for its commit, so request writes never share a transaction with
   * background bookkeeping (an access-log batch touches dozens of rows) and go first when both
   * lanes are waiting; background writes go at the latest after MAX_BACKGROUND_PASSED_OVER request
   * transactions, so they cannot starve under load.
   */
  private startFlush(): void {
    const backgroundDue =
      this.background.length > 0 &&
      (this.pending.length === 0 || this.backgroundPassedOver >= MAX_BACKGROUND_PASSED_OVER);
    const lane: WriteLane = backgroundDue ? 'background' : 'request';
    const batch = this.queue(lane);
    if (lane === 'request') {
      this.pending = [];
      if (this.background.length > 0) this.backgroundPassedOver++;
    } else {
      this.background = [];
      this.backgroundPassedOver = 0;
    }
    this.flushing = this.flush(batch, lane).finally(() => {
      this.flushing = null;
      if (this.waiting()) this.schedule();
    });
  }

  private async flush(batch: QueuedWrite[], lane: WriteLane): Promise<void> {
    let outcome: BatchOutcome;
    try {
      outcome = await retryWhileBusy(() => this.runBatch(batch));
    } catch (error) {
      // Nothing of the batch committed (BEGIN or COMMIT failed, or stayed busy past the deadline).
      for (const item of batch) item.reject(this.hooks.mapError(error, item.operation));
      return;
    }
    for (const { item, error } of outcome.failed) item.reject(this.hooks.mapError(error, item.operation));
    if (outcome.undone.length > 0) {
      // SQLite rolled the whole transaction back on one write's error: the others were undone with
      // it and run again in the next transaction, ahead of anything queued since.
      if (lane === 'request') this.pending = [...outcome.undone, ...this.pending];
      else this.background = [...outcome.undone, ...this.background];
      return;
    }
    for (const { item, value } of outcome.done) {
      try {
        item.afterCommit?.();
      } catch (error) {
        this.hooks.afterCommitFailed();
        item.reject(this.hooks.mapError(error, item.operation));
        continue;
      }
      item.resolve(value);
    }
  }

  /** One transaction over the batch; synchronous, so no read of this process sees it half done. */
  private runBatch(batch: readonly QueuedWrite[]): BatchOutcome {
    const db = this.db();
    const outcome: BatchOutcome = { done: [], failed: [], undone: [] };
    db.exec('BEGIN IMMEDIATE');
    try {
      this.hooks.begin();
      if (batch.length === 1) {
        // A write on its own needs no savepoint: its failure rolls back the transaction below.
        outcome.done.push({ item: batch[0], value: batch[0].work() });
      } else {
        for (let index = 0; index < batch.length; index++) {
          const item = batch[index];
          db.exec(`SAVEPOINT ${SAVEPOINT}`);
          try {
            outcome.done.push({ item, value: item.work() });
            db.exec(`RELEASE ${SAVEPOINT}`);
          } catch (error) {
            if (isBusyError(error)) throw error;
            outcome.failed.push({ item, error });
            if (!db.isTransaction) {
              outcome.undone = [...outcome.done.map((done) => done.item), ...batch.slice(index + 1)];
              outcome.done = [];
              return outcome;
            }
            db.exec(`ROLLBACK TO ${SAVEPOINT}`);
            db.exec(`RELEASE ${SAVEPOINT}`);
          }
        }
      }
      this.hooks.end();
      db.exec('COMMIT');
    } catch (error) {
      // SQLite rolls back by itself on some errors (SQLITE_FULL, for one); a second ROLLBACK would
      // then fail and hide the original error.
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
    this.hooks.committed();
    return outcome;
  }
}

interface BatchOutcome {
  done: Array<{ item: QueuedWrite; value: unknown }>;
  failed: Array<{ item: QueuedWrite; error: unknown }>;
  /** Writes undone by a rollback SQLite made on its own; they have not failed and run again. */
  undone: QueuedWrite[];
}
