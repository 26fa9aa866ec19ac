import type { Logger } from '../../core/ports/logger.ts';
import type { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS } from './database.ts';
import type { Database } from './sqliteModule.ts';

/** Commits between checkpoint requests; a commit writes a few to a few dozen pages. */
export const COMMITS_PER_CHECKPOINT = 16;
/**
 * Backstop on the request path: SQLite checkpoints inside a commit only when the WAL has grown
 * this many pages (40 MB) without the worker completing a checkpoint (it failed or fell behind).
 * The default of 1,000 pages made every ~1,000th page's commit copy 4 MB and fsync twice,
 * 10–100 ms inside whichever call committed it.
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;
/**
 * SQLite truncates the WAL to this size when a commit starts it over. Above the backstop, so it only
 * trims a WAL that outgrew it (checkpoints held back by a long reader). A smaller limit cost the
 * working-memory tools their p99: the truncate took up to 20 ms inside a commit on this project's
 * VM, and every commit after it wrote into freshly allocated blocks, 1–3 ms per write, where a WAL
 * left at its size is rewritten in place. The file goes when the last connection closes.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/** SQLite's default, restored if the worker cannot run. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
/** Passes per request: each copies what was committed during the previous one, so they shorten. */
const PASSES_PER_REQUEST = 4;

/**
 * Plain JavaScript evaluated in the worker (no bundling, no type stripping needed). PASSIVE
 * never takes the write lock and never waits, so this process's readers and writers carry on
 * while pages are copied and the file is synced. A pass that copies every frame lets the next
 * commit start the WAL over from its beginning.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: workerData.busyTimeoutMs });
db.exec('PRAGMA synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const started = performance.now();
  let result = { busy: 0, log: 0, checkpointed: 0 };
  let passes = 0;
  while (passes < workerData.passes) {
    result = checkpoint.get();
    passes++;
    if (result.busy !== 0 || result.checkpointed >= result.log) break;
  }
  parentPort.postMessage({ busy: Number(result.busy), log: Number(result.log), checkpointed: Number(result.checkpointed), passes, ms: performance.now() - started });
});
`;

export interface CheckpointReport {
  busy: number;
  /** Frames in the WAL when the last pass ran, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
  passes: number;
  ms: number;
}

/**
 * Copies the WAL into the database file on a worker thread with its own connection, so no
 * request waits for a checkpoint: with SQLite's automatic checkpoints, the commit that crossed
 * the threshold paid for copying the whole WAL and two fsyncs (the p99 of issue #2). The worker
 * starts on the first request, so a store that writes little never starts one. Durability is
 * unchanged: commits go to the WAL exactly as before; only who copies them back changes.
 */
export class WalCheckpointer {
  private readonly db: Database;
  private readonly path: string;
  private worker: Worker | null = null;
  private failed = false;
  private inFlight = false;
  private commitsSinceRequest = 0;
  lastReport: CheckpointReport | null = null;
  /** Completed requests, for tests and stats. */
  completed = 0;

  private readonly log: Logger;

  constructor(db: Database, path: string, log: Logger) {
    this.log = log;
    this.db = db;
    this.path = path;
    db.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }

  /** After every commit of this connection. */
  noteCommit(): void {
    this.commitsSinceRequest++;
    if (!this.inFlight && !this.failed && this.commitsSinceRequest >= COMMITS_PER_CHECKPOINT) this.request();
  }

  /** Stops the worker; SQLite's own checkpoint at the last connection's close still runs. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failed = true;
    if (worker === null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Unreferenced, the worker would let the process exit while close() is still waiting for it.
    worker.ref();
    worker.postMessage('close');
    await exited;
  }

  private request(): void {
    this.commitsSinceRequest = 0;
    this.inFlight = true;
    (this.worker ?? this.start()).postMessage('checkpoint');
  }

  private start(): Worker {
    // node:worker_threads when the first checkpoint is asked for, not at every fml start (6–8 ms of CPU).
    const worker = new (process.getBuiltinModule('node:worker_threads').Worker)(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, busyTimeoutMs: BUSY_TIMEOUT_MS, passes: PASSES_PER_REQUEST },
    });
    // A checkpoint in progress must not keep a finished CLI command alive.
    worker.unref();
    worker.on('message', (report: CheckpointReport) => {
      this.inFlight = false;
      this.completed++;
      this.lastReport = report;
      if (!this.failed && this.commitsSinceRequest >= COMMITS_PER_CHECKPOINT) this.request();
    });
    worker.on('error', (error) => this.fallBack(error));
    worker.on('exit', (code) => {
      if (this.worker === worker && code !== 0) this.fallBack(new Error(`checkpoint worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  /** Without the worker, SQLite checkpoints inside commits again, at its default size. */
  private fallBack(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.inFlight = false;
    this.worker = null;
    this.log.warn('background WAL checkpoints stopped; SQLite will checkpoint during commits instead', error);
    // close() marks the checkpointer failed before the connection closes, so it is still open here.
    this.db.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }
}
