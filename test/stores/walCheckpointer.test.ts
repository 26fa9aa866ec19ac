import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import {
  BACKSTOP_AUTOCHECKPOINT_PAGES,
  COMMITS_PER_CHECKPOINT,
  WAL_SIZE_LIMIT_BYTES,
  WalCheckpointer,
} from '../../src/stores/sqlite/walCheckpointer.ts';
import { recordingLogger } from '../support/recordingLogger.ts';

async function withWalDatabase(work: (db: DatabaseSync, path: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fml-wal-'));
  const path = join(dir, 'memory.db');
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
  try {
    await work(db, path);
  } finally {
    if (db.isOpen) db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function commit(db: DatabaseSync, checkpointer: WalCheckpointer, count: number): void {
  for (let i = 0; i < count; i++) {
    db.prepare('INSERT INTO notes (body) VALUES (?)').run('x'.repeat(3_000));
    checkpointer.noteCommit();
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const autocheckpoint = (db: DatabaseSync): number =>
  Number((db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint);

describe('WalCheckpointer', () => {
  it('leaves checkpoints to a worker: commits only checkpoint themselves past the backstop', async () => {
    await withWalDatabase(async (db, path) => {
      const checkpointer = new WalCheckpointer(db, path, recordingLogger());
      assert.equal(autocheckpoint(db), BACKSTOP_AUTOCHECKPOINT_PAGES);
      commit(db, checkpointer, COMMITS_PER_CHECKPOINT - 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(checkpointer.completed, 0, 'no worker before enough commits');
      commit(db, checkpointer, 1);
      await until(() => checkpointer.completed === 1, 'the first checkpoint');
      const report = checkpointer.lastReport!;
      assert.equal(report.busy, 0);
      assert.ok(report.log > 0);
      assert.equal(report.checkpointed, report.log, 'every frame copied into the database file');
      await checkpointer.close();
      commit(db, checkpointer, COMMITS_PER_CHECKPOINT);
      assert.equal(checkpointer.completed, 1, 'no requests after close');
      db.close();
      const reopened = new DatabaseSync(path);
      assert.equal(
        (reopened.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n,
        2 * COMMITS_PER_CHECKPOINT,
      );
      reopened.close();
    });
  });

  it('starts a grown WAL over in place instead of truncating it', async () => {
    await withWalDatabase(async (db, path) => {
      const checkpointer = new WalCheckpointer(db, path, recordingLogger());
      try {
        const pageSize = Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
        assert.ok(
          BACKSTOP_AUTOCHECKPOINT_PAGES * pageSize < WAL_SIZE_LIMIT_BYTES,
          'the backstop checkpoints before the limit trims',
        );
        // One transaction of about 10 MB: more than the 4 MB the WAL used to be cut back to.
        db.exec('BEGIN');
        const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
        for (let i = 0; i < 2_500; i++) insert.run('y'.repeat(3_000));
        db.exec('COMMIT');
        const grown = (await stat(`${path}-wal`)).size;
        assert.ok(grown > 8 * 1024 * 1024, `WAL grew to ${grown} bytes`);
        commit(db, checkpointer, COMMITS_PER_CHECKPOINT);
        await until(
          () => checkpointer.completed >= 1 && checkpointer.lastReport!.checkpointed === checkpointer.lastReport!.log,
          'a complete checkpoint',
        );
        const beforeRestart = (await stat(`${path}-wal`)).size;
        // This commit finds every frame checkpointed and writes from the start of the WAL again.
        commit(db, checkpointer, 1);
        const frames = Number((db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number }).log);
        assert.ok(frames < 10, `the WAL started over (${frames} frames)`);
        assert.equal((await stat(`${path}-wal`)).size, beforeRestart, 'the file keeps its blocks');
      } finally {
        await checkpointer.close();
      }
    });
  });

  it('falls back to SQLite checkpoints during commits when the worker cannot open the file', async () => {
    await withWalDatabase(async (db) => {
      const log = recordingLogger();
      const checkpointer = new WalCheckpointer(db, join(tmpdir(), 'fml-no-such-dir', 'missing', 'memory.db'), log);
      commit(db, checkpointer, COMMITS_PER_CHECKPOINT);
      await until(() => autocheckpoint(db) === 1_000, 'the fallback');
      assert.match(log.lines[0] ?? '', /^warn background WAL checkpoints stopped/);
      await checkpointer.close();
    });
  });
});
