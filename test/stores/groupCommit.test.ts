import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { GroupCommit } from '../../src/stores/sqlite/groupCommit.ts';

interface Harness {
  db: DatabaseSync;
  path: string;
  commits: GroupCommit;
  log: string[];
  rows(): string[];
  /** How many transactions the queue has tried to open (each attempt asks for the connection). */
  attempts(): number;
}

/** A WAL database with a notes table, and a group commit over it whose hooks log what happens. */
async function withGroupCommit(work: (harness: Harness) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fml-group-'));
  const path = join(dir, 'memory.db');
  // No busy wait inside SQLite: a locked database throws at once and the queue retries asynchronously.
  const db = new DatabaseSync(path, { timeout: 0 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('CREATE TABLE notes (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL UNIQUE)');
  db.exec('CREATE TABLE owners (id INTEGER PRIMARY KEY)');
  db.exec('CREATE TABLE links (owner INTEGER REFERENCES owners (id) DEFERRABLE INITIALLY DEFERRED)');
  const log: string[] = [];
  let attempts = 0;
  const connection = () => {
    attempts += 1;
    return db;
  };
  const commits = new GroupCommit(connection, {
    begin: () => log.push('begin'),
    end: () => log.push('end'),
    committed: () => log.push('commit'),
    afterCommitFailed: () => log.push('caches dropped'),
    mapError: (error, operation) =>
      new MemoryError('PROVIDER_ERROR', `${operation}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
        operation,
      }),
  });
  const rows = () =>
    (db.prepare('SELECT body FROM notes ORDER BY seq').all() as Array<{ body: string }>).map((row) => row.body);
  try {
    await work({ db, path, commits, log, rows, attempts: () => attempts });
  } finally {
    if (db.isOpen) db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const insert = (db: DatabaseSync, body: string) => () =>
  Number(db.prepare('INSERT INTO notes (body) VALUES (?)').run(body).lastInsertRowid);

describe('GroupCommit', () => {
  it('commits the writes of one turn in one transaction, in the order they were queued', async () => {
    await withGroupCommit(async ({ db, commits, log, rows }) => {
      const seqs = await Promise.all(['a', 'b', 'c', 'd'].map((body) => commits.write('insert', insert(db, body))));
      assert.deepEqual(seqs, [1, 2, 3, 4]);
      assert.deepEqual(log, ['begin', 'end', 'commit'], 'one transaction for the four');
      assert.deepEqual(rows(), ['a', 'b', 'c', 'd']);
      await commits.write('insert', insert(db, 'e'));
      assert.deepEqual(log.filter((entry) => entry === 'commit').length, 2, 'a later turn commits on its own');
    });
  });

  it('commits background writes in their own transaction, after the requests of the same turn', async () => {
    await withGroupCommit(async ({ db, commits, log, rows }) => {
      const order: string[] = [];
      const track = (body: string, lane: 'request' | 'background') =>
        commits.write('insert', insert(db, body), () => order.push(body), lane);
      await Promise.all([
        track('access log', 'background'),
        track('request 1', 'request'),
        track('request 2', 'request'),
      ]);
      assert.deepEqual(order, ['request 1', 'request 2', 'access log'], 'requests are acknowledged first');
      assert.deepEqual(log, ['begin', 'end', 'commit', 'begin', 'end', 'commit'], 'two transactions');
      assert.deepEqual(rows(), ['request 1', 'request 2', 'access log']);
    });
  });

  it('does not let a steady stream of requests starve background writes', async () => {
    await withGroupCommit(async ({ db, commits }) => {
      let requestTurns = 0;
      let stop = false;
      // One request write per turn, for as long as the background write waits.
      const requests = (async () => {
        while (!stop && requestTurns < 50) {
          await commits.write('insert', insert(db, `request ${requestTurns++}`));
        }
      })();
      await new Promise((resolve) => setImmediate(resolve));
      await commits.write('insert', insert(db, 'background'), undefined, 'background');
      stop = true;
      await requests;
      assert.ok(requestTurns <= 10, `the background write waited ${requestTurns} request transactions`);
    });
  });

  it('settles nothing before the COMMIT returned, and runs afterCommit once committed', async () => {
    await withGroupCommit(async ({ db, commits, rows }) => {
      const seen: string[][] = [];
      const written = commits.write('insert', insert(db, 'x'), () => seen.push(rows()));
      assert.deepEqual(rows(), [], 'nothing is written within the call that queued it');
      await written;
      assert.deepEqual(seen, [['x']], 'afterCommit saw the committed row');
    });
  });

  it('rolls back a failing write alone: the others of its transaction commit', async () => {
    await withGroupCommit(async ({ db, commits, rows }) => {
      await commits.write('insert', insert(db, 'taken'));
      const afterCommits: string[] = [];
      const results = await Promise.allSettled([
        commits.write('insert', insert(db, 'one'), () => afterCommits.push('one')),
        commits.write(
          'insert',
          () => {
            insert(db, 'partial')();
            return insert(db, 'taken')();
          },
          () => afterCommits.push('duplicate'),
        ),
        commits.write('insert', insert(db, 'two'), () => afterCommits.push('two')),
      ]);
      assert.deepEqual(
        results.map((result) => result.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      const failure = (results[1] as PromiseRejectedResult).reason as MemoryError;
      assert.equal(failure.code, 'PROVIDER_ERROR');
      assert.match(failure.message, /UNIQUE constraint failed/);
      assert.deepEqual(rows(), ['taken', 'one', 'two'], 'the failed write left nothing, not even its first insert');
      assert.deepEqual(afterCommits, ['one', 'two']);
    });
  });

  it('acknowledges nothing when the COMMIT itself fails', async () => {
    await withGroupCommit(async ({ db, commits, rows }) => {
      const results = await Promise.allSettled([
        commits.write('insert', insert(db, 'innocent')),
        // A deferred foreign key is only checked at COMMIT, which then fails for the whole transaction.
        commits.write('link', () => db.prepare('INSERT INTO links (owner) VALUES (42)').run()),
      ]);
      assert.deepEqual(
        results.map((result) => result.status),
        ['rejected', 'rejected'],
      );
      assert.match(String((results[0] as PromiseRejectedResult).reason.message), /FOREIGN KEY constraint failed/);
      assert.equal(db.isTransaction, false);
      assert.deepEqual(rows(), []);
      assert.equal(await commits.write('insert', insert(db, 'later')), 1, 'the queue carries on');
    });
  });

  it('runs again the writes undone when SQLite rolls the whole transaction back on an error', async () => {
    await withGroupCommit(async ({ db, commits, log, rows }) => {
      const results = await Promise.allSettled([
        commits.write('insert', insert(db, 'first')),
        commits.write('fail', () => {
          // As SQLite does by itself on SQLITE_FULL: the transaction is gone when the error surfaces.
          db.exec('ROLLBACK');
          throw new Error('disk full');
        }),
        commits.write('insert', insert(db, 'third')),
      ]);
      assert.deepEqual(
        results.map((result) => result.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.match(String((results[1] as PromiseRejectedResult).reason.message), /disk full/);
      assert.deepEqual(rows(), ['first', 'third']);
      assert.deepEqual(log, ['begin', 'begin', 'end', 'commit'], 'the undone writes committed in a second transaction');
    });
  });

  it('reports an afterCommit failure to its caller while the commit stands', async () => {
    await withGroupCommit(async ({ db, commits, log, rows }) => {
      const results = await Promise.allSettled([
        commits.write('insert', insert(db, 'a'), () => {
          throw new Error('cache update failed');
        }),
        commits.write('insert', insert(db, 'b')),
      ]);
      assert.deepEqual(
        results.map((result) => result.status),
        ['rejected', 'fulfilled'],
      );
      assert.ok(log.includes('caches dropped'));
      assert.deepEqual(rows(), ['a', 'b']);
    });
  });

  it('waits for another connection’s write lock and then commits', async () => {
    await withGroupCommit(async ({ db, path, commits, log, rows, attempts }) => {
      const other = new DatabaseSync(path);
      other.exec('BEGIN IMMEDIATE');
      other.exec("INSERT INTO notes (body) VALUES ('other')");
      const queued = commits.write('insert', insert(db, 'mine'));
      // Wait until the queue was refused the lock and came back for it: a second attempt.
      while (attempts() < 2) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(log, [], 'no transaction opened while the other connection holds the lock');
      assert.deepEqual(rows(), [], 'still waiting for the lock');
      other.exec('COMMIT');
      other.close();
      assert.equal(await queued, 2);
      assert.deepEqual(rows(), ['other', 'mine']);
    });
  });

  it('drain() commits everything queued before it returns', async () => {
    await withGroupCommit(async ({ db, commits, rows }) => {
      const queued = ['p', 'q'].map((body) => commits.write('insert', insert(db, body)));
      await commits.drain();
      assert.deepEqual(rows(), ['p', 'q']);
      await Promise.all(queued);
    });
  });
});
