import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import type { CatchUp } from '../../src/stores/sqlite/changeFeed.ts';
import { SqliteConnection } from '../../src/stores/sqlite/sqliteConnection.ts';
import { WalIndexHeader } from '../../src/stores/sqlite/walIndexHeader.ts';
import { countingHeaderReads } from '../support/countingHeaderReads.ts';
import { recordingLogger } from '../support/recordingLogger.ts';

/**
 * Reads skip the change-log catch-up while the WAL index header says nobody committed since the
 * last one (walIndexHeader.ts). What must not change: another connection's commit is seen by the
 * next read, and a read's SQL and the caches it consults describe one snapshot of the file.
 */
interface Harness {
  path: string;
  connection: SqliteConnection;
  /** What each catch-up of `connection` found, in order. */
  catchUps: CatchUp['kind'][];
  /** Change-log rows this process has applied (the caches' view). */
  applied: () => number;
  /** Work to run just before (or after) each catch-up of `connection`, inside its read transaction. */
  aroundCatchUp: { before?: () => void; after?: () => void };
}

async function withConnection(work: (harness: Harness) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-quiet-'));
  const path = join(dataDir, 'memory.db');
  const catchUps: CatchUp['kind'][] = [];
  const aroundCatchUp: Harness['aroundCatchUp'] = {};
  const connection = new SqliteConnection({
    dataDir,
    path,
    retention: undefined,
    log: recordingLogger(),
    caches: {
      catchUp: ({ feed }) => {
        aroundCatchUp.before?.();
        catchUps.push(feed.catchUp().kind);
        aroundCatchUp.after?.();
      },
      dropAll: () => {},
    },
  });
  await connection.connect();
  try {
    await work({
      path,
      connection,
      catchUps,
      applied: () => connection.require('test').feed.appliedSeq(),
      aroundCatchUp,
    });
  } finally {
    await connection.disconnect();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A commit of another connection, as another process makes it. */
function commitElsewhere(path: string, memoryId: string): void {
  const other = new DatabaseSync(path);
  try {
    other.prepare("INSERT INTO change_log (user_id, memory_id, op) VALUES ('u', ?, 'upsert')").run(memoryId);
  } finally {
    other.close();
  }
}

const logRows = (connection: SqliteConnection): number =>
  Number(
    (connection.require('test').sql.get('SELECT COUNT(*) AS n FROM change_log').get() as { n: number | bigint }).n,
  );

describe('reads while nobody commits', () => {
  it('skip the catch-up until another connection commits, and the next read then sees that commit', async () => {
    await withConnection(async ({ path, connection, catchUps, applied }) => {
      await connection.read('first', () => null);
      await connection.read('second', () => null);
      await connection.read('third', () => null);
      assert.deepEqual(catchUps, ['current'], 'one catch-up, then the header vouches for it');

      commitElsewhere(path, 'm1');
      const rows = await connection.read('after their commit', () => logRows(connection));
      assert.deepEqual(catchUps, ['current', 'changes']);
      assert.equal(rows, 1);
      assert.equal(applied(), 1, 'the caches took the commit before the read');
    });
  });

  it('catch up after a commit of their own connection, which moves the header but not data_version', async () => {
    await withConnection(async ({ connection, catchUps }) => {
      await connection.read('warm', () => null);
      await connection.write('own', ({ feed }) => feed.append('u', 'mine', 'upsert'));
      await connection.read('after own commit', () => null);
      await connection.read('quiet again', () => null);
      assert.deepEqual(catchUps, ['current', 'current']);
    });
  });

  it("run again caught up when another connection's commit lands between the check and the read's own SQL", async () => {
    await withConnection(async ({ path, connection, catchUps, applied }) => {
      await connection.read('warm', () => null);
      let runs = 0;
      const seen = await connection.read('overtaken', () => {
        runs++;
        // The check has passed; the commit lands before this read's first statement takes its snapshot.
        if (runs === 1) commitElsewhere(path, 'm1');
        return { rows: logRows(connection), applied: applied() };
      });
      assert.deepEqual(seen, { rows: 1, applied: 1 }, 'the rows and the caches describe one snapshot');
      assert.equal(runs, 2);
      assert.equal(connection.snapshotsOvertaken, 1);
      assert.deepEqual(catchUps, ['current', 'changes']);
    });
  });

  it("vouch for nothing when they catch up inside a caller's transaction, whose snapshot may be older", async () => {
    await withConnection(async ({ path, connection, catchUps, applied }) => {
      const { db } = connection.require('test');
      db.exec('BEGIN');
      assert.equal(logRows(connection), 0, 'the snapshot is taken');
      commitElsewhere(path, 'm1');
      // Joins the open transaction: its catch-up sees the old snapshot, though the header has moved.
      await connection.read('nested', () => null);
      db.exec('COMMIT');
      assert.equal(await connection.read('next', () => applied()), 1, 'the next read catches up');
      assert.deepEqual(catchUps, ['current', 'changes']);
    });
  });

  it('catch up from the header their check read: commits landing around the catch-up are each seen by a read', async () => {
    await withConnection(async ({ path, connection, catchUps, applied, aroundCatchUp }) => {
      await connection.read('warm', () => null);
      commitElsewhere(path, 'm1');
      // After the check that found m1, before the catch-up's snapshot: this read's catch-up has it.
      aroundCatchUp.before = () => commitElsewhere(path, 'm2');
      // After the catch-up's snapshot, inside this read: not in it, so the next read must catch up.
      aroundCatchUp.after = () => commitElsewhere(path, 'm3');
      const rows = await connection.read('after m1', () => logRows(connection));
      assert.equal(rows, 2, 'the read sees the snapshot its catch-up took: m1 and m2');
      assert.equal(applied(), 2);
      aroundCatchUp.before = undefined;
      aroundCatchUp.after = undefined;
      assert.equal(await connection.read('next', () => applied()), 3, 'm3 is in the next read');
      assert.equal(await connection.read('quiet again', () => logRows(connection)), 3);
      assert.deepEqual(catchUps, ['current', 'changes', 'changes']);
    });
  });

  it('read the header once when a commit sends them to the catch-up', async () => {
    await withConnection(async ({ path, connection, catchUps }) => {
      await connection.read('warm', () => null);
      commitElsewhere(path, 'm1');
      const reads = countingHeaderReads();
      try {
        await connection.read('after m1', () => null);
      } finally {
        reads.stop();
      }
      assert.deepEqual(catchUps, ['current', 'changes']);
      assert.equal(reads.count, 1, "the check's read is the catch-up's header");
    });
  });

  it('are not run again when the commit lands after a read that ran no SQL', async () => {
    await withConnection(async ({ path, connection, catchUps }) => {
      await connection.read('warm', () => null);
      let runs = 0;
      await connection.read('from memory only', () => {
        runs++;
        commitElsewhere(path, `m${runs}`);
        return null;
      });
      assert.equal(runs, 1, 'no snapshot was taken, so none can disagree with the caches');
      await connection.read('next', () => null);
      assert.deepEqual(catchUps, ['current', 'changes'], 'the next read catches up');
    });
  });
});

describe('the transaction of a read', () => {
  it('is tried again after SQLITE_BUSY, after a wait rather than at once, and not after another failure', async () => {
    await withConnection(async ({ connection }) => {
      const busy = Object.assign(new Error('database is locked'), { errcode: 5 });
      const attempts: boolean[] = [];
      let turnEnded = false;
      setImmediate(() => (turnEnded = true));
      const value = await connection.read('busy once', () => {
        attempts.push(turnEnded);
        if (attempts.length === 1) throw busy;
        return 'read';
      });
      assert.equal(value, 'read');
      assert.deepEqual(attempts, [false, true], 'the first attempt at once, the second after the wait');
      let runs = 0;
      await assert.rejects(
        connection.read('broken', () => {
          runs++;
          throw new Error('not a busy file');
        }),
        (error: Error & { code?: string }) => error.code === 'PROVIDER_ERROR',
      );
      assert.equal(runs, 1, 'only a busy file is worth another attempt');
    });
  });

  it('is not opened when the caches answer the read, and opened at its first statement when it runs SQL', async () => {
    await withConnection(async ({ connection }) => {
      const { db } = connection.require('test');
      await connection.read('warm', () => null);
      assert.equal(await connection.read('from memory only', () => db.isTransaction), false, 'no BEGIN, no COMMIT');
      const seen = await connection.read('with SQL', () => {
        const before = db.isTransaction;
        const rows = logRows(connection);
        return { before, rows, during: db.isTransaction };
      });
      assert.deepEqual(seen, { before: false, rows: 0, during: true }, 'its statements run in one transaction');
      assert.equal(db.isTransaction, false, 'committed when the read ends');
    });
  });

  it('is rolled back when the read fails after its SQL, and the next read opens its own', async () => {
    await withConnection(async ({ connection }) => {
      const { db } = connection.require('test');
      await connection.read('warm', () => null);
      await assert.rejects(
        connection.read('fails', () => {
          logRows(connection);
          throw new Error('the read fails');
        }),
        /the read fails/,
      );
      assert.equal(db.isTransaction, false);
      assert.equal(await connection.read('next', () => logRows(connection)), 0);
      assert.equal(db.isTransaction, false);
    });
  });
});

describe('WalIndexHeader', () => {
  it('reads the same until a connection commits, and differs after every commit', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-walhdr-'));
    const path = join(dataDir, 'memory.db');
    const db = new DatabaseSync(path);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('CREATE TABLE notes (body TEXT)');
      const header = WalIndexHeader.open(path);
      assert.ok(header !== null, 'Linux and macOS read the -shm file');
      const seen = new Set<string>();
      for (let commit = 0; commit < 20; commit++) {
        const known = header.current();
        assert.ok(known !== null);
        seen.add(known.toString('hex'));
        assert.equal(header.matches(known), true, 'no commit, same header');
        db.prepare('SELECT COUNT(*) FROM notes').get();
        assert.equal(header.matches(known), true, 'a read leaves it');
        db.prepare('INSERT INTO notes (body) VALUES (?)').run(`note ${commit}`);
        assert.equal(header.matches(known), false, 'a commit moves it');
      }
      // A checkpoint that restarts the log starts the frames over: the header still never repeats.
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      db.prepare('INSERT INTO notes (body) VALUES (?)').run('after the restart');
      const restarted = header.current();
      assert.ok(restarted !== null && !seen.has(restarted.toString('hex')));
      header.close();
      assert.equal(header.matches(restarted), false, 'a closed header vouches for nothing');
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is not used where a plain read need not see a mapped write, nor without a -shm file', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-walhdr-'));
    const path = join(dataDir, 'memory.db');
    try {
      assert.equal(WalIndexHeader.open(path), null, 'no -shm file');
      const db = new DatabaseSync(path);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('CREATE TABLE notes (body TEXT)');
      assert.equal(WalIndexHeader.open(path, 'win32'), null);
      const onLinux = WalIndexHeader.open(path, 'linux');
      assert.notEqual(onLinux, null);
      onLinux?.close();
      db.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
