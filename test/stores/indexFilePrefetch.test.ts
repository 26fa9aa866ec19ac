import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { peekPrefetchedIndexFile, prefetchNewestIndexFile } from '../../src/stores/sqlite/indexFilePrefetch.ts';
import { IndexSnapshotFiles } from '../../src/stores/sqlite/indexSnapshotFiles.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { storeFileOf } from '../../src/stores/sqlite/storeFile.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { makeMemory, newUserId } from '../contract/fixtures.ts';
import { withTempDataDir } from '../support/tempDataDir.ts';

const withDir = (work: (dataDir: string) => Promise<void>): Promise<void> => withTempDataDir('fml-prefetch-', work);

/** A user's index file holding `text`, written as the store publishes one (a temporary file renamed into place). */
async function placeFile(
  files: IndexSnapshotFiles,
  userId: string,
  text: string,
  mtimeSeconds?: number,
): Promise<string> {
  const temporary = await files.writeTemporary(userId, [Buffer.from(text)]);
  assert.equal(files.publish(temporary, userId), true);
  const path = files.pathFor(userId);
  if (mtimeSeconds !== undefined) utimesSync(path, mtimeSeconds, mtimeSeconds);
  return path;
}

describe('the persisted index read ahead at a memory process start', () => {
  it('reads the most recently written user file, and the first load of that user takes exactly those bytes, once', async () => {
    await withDir(async (dataDir) => {
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      const [older, newer] = [newUserId(), newUserId()];
      await placeFile(files, older, 'older user', 1_000_000);
      const newerPath = await placeFile(files, newer, 'newer user', 2_000_000);
      assert.equal(await files.prefetchNewest(), newerPath);
      assert.equal(await peekPrefetchedIndexFile(files.pathFor(older)), undefined, 'only the newest is read');
      const early = await peekPrefetchedIndexFile(newerPath);
      assert.ok(early instanceof Buffer);
      const loaded = await files.read(newer);
      assert.equal(loaded, early, 'the load got the buffer read ahead, not a second read');
      assert.equal(await peekPrefetchedIndexFile(newerPath), undefined, 'taken: the memory is the load’s');
      const again = await files.read(newer);
      assert.notEqual(again, early, 'a later load reads the file itself');
      assert.deepEqual(again, Buffer.from('newer user'));
      assert.deepEqual(await files.read(older), Buffer.from('older user'));
    });
  });

  it('a file replaced after it was read ahead is read again: the load never gets the old bytes', async () => {
    await withDir(async (dataDir) => {
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      const user = newUserId();
      // The same size and modification time: only the file itself (its inode) tells them apart.
      const path = await placeFile(files, user, 'first save.', 1_500_000);
      assert.equal(await files.prefetchNewest(), path);
      assert.deepEqual(await peekPrefetchedIndexFile(path), Buffer.from('first save.'));
      await placeFile(files, user, 'second save', 1_500_000);
      assert.deepEqual(await files.read(user), Buffer.from('second save'));
    });
  });

  it('a file removed after it was read ahead is gone for the load too', async () => {
    await withDir(async (dataDir) => {
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      const user = newUserId();
      const path = await placeFile(files, user, 'removed later');
      await files.prefetchNewest();
      renameSync(path, join(dataDir, 'elsewhere'));
      assert.equal(await files.read(user), null);
    });
  });

  it('an erasure of the user drops the bytes read ahead at once', async () => {
    await withDir(async (dataDir) => {
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      const user = newUserId();
      const path = await placeFile(files, user, 'the erased user’s terms');
      await files.prefetchNewest();
      assert.ok((await peekPrefetchedIndexFile(path)) instanceof Buffer);
      files.eraseUser(user);
      assert.equal(await peekPrefetchedIndexFile(path), undefined, 'no copy of the erased index is held');
      assert.equal(await files.read(user), null);
    });
  });

  it('bytes nobody takes are dropped after the time they are kept', async () => {
    await withDir(async (dataDir) => {
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      const path = await placeFile(files, newUserId(), 'never asked for');
      assert.equal(await prefetchNewestIndexFile(files.dir, '.fmlidx', 30), path);
      assert.ok((await peekPrefetchedIndexFile(path)) instanceof Buffer, 'held while kept');
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.equal(await peekPrefetchedIndexFile(path), undefined, 'given back after 30 ms');
    });
  });

  it('reads nothing when there is no index directory, or only temporary files in it', async () => {
    await withDir(async (dataDir) => {
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      assert.equal(await files.prefetchNewest(), null);
      mkdirSync(files.dir, { recursive: true });
      writeFileSync(join(files.dir, 'u-0.123.abcd.tmp'), 'half written');
      assert.equal(await files.prefetchNewest(), null);
    });
  });

  it('a store opened after the read ahead loads its persisted index from those bytes and answers from it', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const writer = new SqliteMemoryStore({ dataDir });
      await writer.open();
      const memory = makeMemory(user, { content: 'The okapi release train leaves on Tuesdays' });
      await writer.insertMemory(memory, null);
      await writer.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('okapi'), limit: 5 });
      await writer.close();
      const files = new IndexSnapshotFiles(storeFileOf(dataDir));
      const path = await files.prefetchNewest();
      assert.equal(path, files.pathFor(user));
      const early = await peekPrefetchedIndexFile(path!);
      assert.deepEqual(early, readFileSync(path!), 'the bytes read ahead are the file');
      const reader = new SqliteMemoryStore({ dataDir });
      await reader.open();
      try {
        const hits = await reader.searchLexical({
          filter: { user_id: user },
          terms: analyzeQuery('okapi train'),
          limit: 5,
        });
        assert.deepEqual(
          hits.map((hit) => hit.memory_id),
          [memory.memory_id],
        );
        assert.equal(reader.indexOrigin(user), 'persisted');
        assert.equal(await peekPrefetchedIndexFile(path!), undefined, 'the load took them');
      } finally {
        await reader.close();
      }
    });
  });
});
