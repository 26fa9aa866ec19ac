import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { inReadTransaction } from '../../src/stores/sqlite/database.ts';

async function withTwoConnections(work: (reader: DatabaseSync, writer: DatabaseSync) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fml-read-'));
  const path = join(dir, 'memory.db');
  const reader = new DatabaseSync(path);
  reader.exec('PRAGMA journal_mode = WAL');
  reader.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
  const writer = new DatabaseSync(path);
  try {
    work(reader, writer);
  } finally {
    reader.close();
    writer.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const count = (db: DatabaseSync) => Number((db.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n);
const dataVersion = (db: DatabaseSync) =>
  Number((db.prepare('PRAGMA data_version').get() as { data_version: number }).data_version);

describe('inReadTransaction', () => {
  it('shows every statement one snapshot, even when another connection commits meanwhile', async () => {
    await withTwoConnections((reader, writer) => {
      const seen = inReadTransaction(reader, () => {
        const version = dataVersion(reader);
        const before = count(reader);
        writer.exec("INSERT INTO notes (body) VALUES ('from another connection')");
        return { before, after: count(reader), versionMoved: dataVersion(reader) !== version };
      });
      assert.deepEqual(seen, { before: 0, after: 0, versionMoved: false });
      assert.equal(reader.isTransaction, false, 'the read transaction is closed');
      assert.equal(count(reader), 1, 'the next read sees the commit');
    });
  });

  it('joins a transaction already open instead of nesting, and closes nothing it did not open', async () => {
    await withTwoConnections((reader) => {
      const inner = inReadTransaction(reader, () => inReadTransaction(reader, () => reader.isTransaction));
      assert.equal(inner, true);
      assert.equal(reader.isTransaction, false);
      reader.exec('BEGIN');
      inReadTransaction(reader, () => count(reader));
      assert.equal(reader.isTransaction, true, 'the caller’s transaction is still open');
      reader.exec('COMMIT');
    });
  });

  it('ends the transaction when the read throws, and passes the error on', async () => {
    await withTwoConnections((reader) => {
      assert.throws(
        () => inReadTransaction(reader, () => reader.prepare('SELECT nope FROM notes').all()),
        /no such column/,
      );
      assert.equal(reader.isTransaction, false);
    });
  });
});
