import { mkdirSync } from 'node:fs';
import { storedRow } from '../common/storedValues.ts';
import { createPrivateFile } from '../sqlite/filePermissions.ts';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MemoryError } from '../../core/domain/errors.ts';
import { openDatabase, retryWhileBusy } from '../sqlite/database.ts';
import { loadNodeSqlite } from '../sqlite/sqliteModule.ts';
import type { Database } from '../sqlite/sqliteModule.ts';
import { deserializeOp, serializeOp, withoutErased } from './outboxOps.ts';
import { purgeWal } from '../sqlite/walPurge.ts';
import type { OutboxOp } from './outboxOps.ts';

export interface OutboxEntry {
  seq: number;
  op: OutboxOp;
  attempts: number;
}

/** How long a replayer's claim on the outbox lasts without renewal (a crashed process frees it by expiry). */
const LEASE_MS = 30_000;

/**
 * The durable queue of writes Firebolt has not acknowledged yet: its own SQLite file next to the
 * local replica, synchronous = FULL so an enqueued write survives power loss. Entries are
 * replayed in `seq` order. Several processes may share the data directory, so one of them at a
 * time holds the replay lease; that keeps the replay order the enqueue order.
 */
export class Outbox {
  readonly path: string;
  readonly owner = randomUUID();
  #db: Database | null = null;

  constructor(path: string) {
    this.path = path;
  }

  async open(): Promise<void> {
    if (this.#db) return;
    const sqlite = loadNodeSqlite();
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    createPrivateFile(this.path);
    const db = await retryWhileBusy(() => openDatabase(sqlite, this.path));
    db.exec('PRAGMA synchronous = FULL');
    db.exec(`CREATE TABLE IF NOT EXISTS outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      op TEXT NOT NULL,
      payload TEXT NOT NULL,
      enqueued_at TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT
    )`);
    // Writes Firebolt rejected for a reason other than being unreachable; kept, never dropped.
    db.exec(`CREATE TABLE IF NOT EXISTS outbox_rejected (
      seq INTEGER PRIMARY KEY,
      op TEXT NOT NULL,
      payload TEXT NOT NULL,
      enqueued_at TEXT NOT NULL,
      rejected_at TEXT NOT NULL,
      error TEXT NOT NULL
    )`);
    db.exec(
      'CREATE TABLE IF NOT EXISTS replay_lease (id INTEGER PRIMARY KEY CHECK (id = 1), owner TEXT NOT NULL, expires_at INTEGER NOT NULL)',
    );
    this.#db = db;
  }

  close(): void {
    const db = this.#db;
    this.#db = null;
    if (db) {
      db.prepare('DELETE FROM replay_lease WHERE owner = ?').run(this.owner);
      db.close();
    }
  }

  #open(): Database {
    if (!this.#db)
      throw new MemoryError('PROVIDER_ERROR', `The outbox ${this.path} is not open.`, { operation: 'outbox' });
    return this.#db;
  }

  async enqueue(op: OutboxOp): Promise<number> {
    const db = this.#open();
    const result = await retryWhileBusy(() =>
      db
        .prepare('INSERT INTO outbox (op, payload, enqueued_at) VALUES (?, ?, ?)')
        .run(op.op, serializeOp(op), new Date().toISOString()),
    );
    return Number(result.lastInsertRowid);
  }

  /** The oldest entries, in replay order. */
  peek(limit: number): OutboxEntry[] {
    const rows = this.#open()
      .prepare('SELECT seq, payload, attempts FROM outbox ORDER BY seq ASC LIMIT ?')
      .all(limit) as Array<{ seq: number; payload: string; attempts: number }>;
    return rows.map((row) => ({
      seq: Number(row.seq),
      op: deserializeOp(row.payload),
      attempts: Number(row.attempts),
    }));
  }

  pending(): number {
    return Number(storedRow(this.#open().prepare('SELECT COUNT(*) AS n FROM outbox').get(), 'the outbox count').n);
  }

  rejected(): number {
    return Number(
      storedRow(this.#open().prepare('SELECT COUNT(*) AS n FROM outbox_rejected').get(), 'the rejected count').n,
    );
  }

  oldestEnqueuedAt(): string | null {
    const row = this.#open().prepare('SELECT enqueued_at FROM outbox ORDER BY seq ASC LIMIT 1').get() as
      { enqueued_at: string } | undefined;
    return row?.enqueued_at ?? null;
  }

  async remove(seq: number): Promise<void> {
    const db = this.#open();
    await retryWhileBusy(() => db.prepare('DELETE FROM outbox WHERE seq = ?').run(seq));
  }

  /** A failed attempt; `attempts` > 0 tells the replayer the write may already be in Firebolt. */
  async recordAttempt(seq: number, error: string): Promise<number> {
    const db = this.#open();
    await retryWhileBusy(() =>
      db.prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?').run(error, seq),
    );
    const row = db.prepare('SELECT attempts FROM outbox WHERE seq = ?').get(seq) as { attempts: number } | undefined;
    return Number(row?.attempts ?? 0);
  }

  /** Moves an entry Firebolt keeps rejecting aside, so the writes after it are not blocked forever. */
  async reject(seq: number, error: string): Promise<void> {
    const db = this.#open();
    await retryWhileBusy(() => {
      db.exec('BEGIN IMMEDIATE');
      try {
        db.prepare(
          'INSERT OR REPLACE INTO outbox_rejected (seq, op, payload, enqueued_at, rejected_at, error) SELECT seq, op, payload, enqueued_at, ?, ? FROM outbox WHERE seq = ?',
        ).run(new Date().toISOString(), error, seq);
        db.prepare('DELETE FROM outbox WHERE seq = ?').run(seq);
        db.exec('COMMIT');
      } catch (failure) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw failure;
      }
    });
  }

  /**
   * Erasure (forget_all, hard delete) reaches the queue too: pending and rejected writes that
   * carry the erased data are dropped or stripped before the delete itself is queued, and the
   * WAL is emptied, so the outbox file keeps no copy. Dropping them changes nothing in Firebolt's
   * end state: the delete queued next removes whatever they would have written.
   */
  async erase(userId: string, memoryId: string | null): Promise<void> {
    const db = this.#open();
    await retryWhileBusy(() => {
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const table of ['outbox', 'outbox_rejected'] as const) {
          const rows = db.prepare(`SELECT seq, payload FROM ${table}`).all() as Array<{ seq: number; payload: string }>;
          for (const row of rows) {
            const kept = withoutErased(deserializeOp(row.payload), userId, memoryId);
            if (kept === null) db.prepare(`DELETE FROM ${table} WHERE seq = ?`).run(row.seq);
            else if (kept !== 'unchanged')
              db.prepare(`UPDATE ${table} SET payload = ? WHERE seq = ?`).run(serializeOp(kept), row.seq);
          }
        }
        db.exec('COMMIT');
      } catch (failure) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw failure;
      }
    });
    await purgeWal(db);
  }

  /** Takes or renews the replay lease; false while another live process holds it. */
  async claimLease(now: number = Date.now()): Promise<boolean> {
    const db = this.#open();
    return retryWhileBusy(() => {
      const result = db
        .prepare(
          `INSERT INTO replay_lease (id, owner, expires_at) VALUES (1, ?, ?)
           ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
           WHERE replay_lease.owner = excluded.owner OR replay_lease.expires_at < ?`,
        )
        .run(this.owner, now + LEASE_MS, now);
      return Number(result.changes) > 0;
    });
  }
}
