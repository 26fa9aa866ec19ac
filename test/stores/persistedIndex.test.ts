import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { rankingFactsOf } from '../../src/core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../src/core/domain/records.ts';
import { decodeSnapshot, SNAPSHOT_FORMAT_VERSION } from '../../src/stores/sqlite/indexSnapshotFormat.ts';
import { IndexSnapshotFiles } from '../../src/stores/sqlite/indexSnapshotFiles.ts';
import { PersistedIndexes } from '../../src/stores/sqlite/persistedIndexes.ts';
import { SqliteMemoryStore, type SqliteMemoryStoreOptions } from '../../src/stores/sqlite/sqliteStore.ts';
import { embedding, iso, makeMemory, MODEL, newUserId, randomUnitVector, seededRandom } from '../contract/fixtures.ts';
import { EXACT_SCAN_LIMIT } from '../../src/stores/sqlite/vectorSearch.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';
import { stringsOf } from '../../src/stores/common/stringList.ts';
import { withTempDataDir } from '../support/tempDataDir.ts';

const TOPICS = [
  'build cache',
  'deploy pipeline',
  'pelican migration',
  'database index',
  'release calendar',
  'flaky test',
];

const withDir = (work: (dataDir: string) => Promise<void>): Promise<void> => withTempDataDir('fml-persisted-', work);

async function opened(dataDir: string, options: Partial<SqliteMemoryStoreOptions> = {}): Promise<SqliteMemoryStore> {
  const store = new SqliteMemoryStore({ dataDir, ...options });
  await store.open();
  return store;
}

async function fill(store: SqliteMemoryStore, user: string, count: number): Promise<MemoryRecord[]> {
  const memories = Array.from({ length: count }, (_, index) =>
    makeMemory(user, {
      content: `Note ${index} about the ${TOPICS[index % TOPICS.length]} of team ${index % 5}`,
      tags: [`t${index % 3}`],
      pinned: index % 7 === 0,
      created_at: iso(index),
    }),
  );
  await Promise.all(memories.map((memory) => store.insertMemory(memory, null)));
  return memories;
}

/** Dialog turns of three conversations (by session, by metadata, unmarked), every third a question. */
async function fillTurns(store: SqliteMemoryStore, user: string, count: number): Promise<string[]> {
  const turns = Array.from({ length: count }, (_, index) =>
    makeMemory(user, {
      content: `Turn ${index} about the ${TOPICS[index % TOPICS.length]}${index % 3 === 0 ? ', right?' : '.'}`,
      memory_category: 'episodic',
      memory_subtype: 'conversation',
      source_session: index % 3 === 0 ? 'sess_talk' : null,
      metadata: index % 3 === 1 ? { conversation_id: 'c-ü' } : {},
      created_at: iso(200 + index),
    }),
  );
  for (const turn of turns) await store.insertMemory(turn, null);
  return turns.map((turn) => turn.memory_id);
}

/** Memories whose ranking facts come from their metadata and decay: one anchored with a declared project, one without. */
async function fillRanked(store: SqliteMemoryStore, user: string): Promise<string[]> {
  const memories = [
    makeMemory(user, {
      content: 'The pelican migration job is anchored to its script.',
      metadata: { project: ' pebble ', anchors: [{ path: 'scripts/migrate.ts' }] },
      decay_factor: 0.4375,
      event_time: iso(300, 5),
    }),
    makeMemory(user, { content: 'A plain note on the release calendar.', metadata: { project: 4, anchors: [] } }),
  ];
  for (const memory of memories) await store.insertMemory(memory, null);
  return memories.map((memory) => memory.memory_id);
}

async function search(
  store: SqliteMemoryStore,
  user: string,
  text: string,
  extra: { pinned?: boolean; tags?: readonly string[] } = {},
) {
  return store.searchLexical({ filter: { user_id: user, ...extra }, terms: analyzeQuery(text), limit: 20 });
}

const indexDir = (dataDir: string): string => join(dataDir, 'memory.db-indexes');
const indexFiles = (dataDir: string): string[] =>
  readdirSync(indexDir(dataDir)).map((name) => join(indexDir(dataDir), name));

describe('persisted indexes', () => {
  it('a fresh process loads the saved index and answers exactly as one that builds from the rows, filters included', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const writer = await opened(dataDir);
      await fill(writer, user, 120);
      const turns = await fillTurns(writer, user, 12);
      await writer.forgetMemories(user, [turns[3]!], iso(400));
      const ranked = await fillRanked(writer, user);
      await search(writer, user, 'pelican');
      assert.equal(writer.indexOrigin(user), 'rows');
      await writer.close();
      assert.equal(indexFiles(dataDir).length, 1, 'closing saved the index');

      const loaded = await opened(dataDir);
      const rebuilt = await opened(dataDir, { persistedIndexes: false });
      try {
        for (const [text, extra] of [
          ['pelican migration', {}],
          ['build cache team', { pinned: true }],
          ['deploy', { tags: ['t1'] }],
        ] as const) {
          assert.deepEqual(await search(loaded, user, text, extra), await search(rebuilt, user, text, extra), text);
        }
        assert.equal(loaded.indexOrigin(user), 'persisted');
        assert.equal(rebuilt.indexOrigin(user), 'rows');
        const facts = await loaded.turnFacts(user, turns);
        assert.deepEqual(facts, await rebuilt.turnFacts(user, turns), 'the turn facts survive the file');
        assert.deepEqual(facts.get(turns[0]!), { conversation: 'session:sess_talk', question: true });
        assert.deepEqual(facts.get(turns[1]!), { conversation: 'conversation_id:c-ü', question: false });
        assert.deepEqual(facts.get(turns[2]!), { conversation: null, question: false });
        assert.equal(facts.has(turns[3]!), false, 'a forgotten turn has no facts');
        const rankingFacts = await loaded.rankingFacts(user, [...ranked, ...turns]);
        assert.deepEqual(rankingFacts, await rebuilt.rankingFacts(user, [...ranked, ...turns]));
        const rows = (await loaded.getMemories(user, [...ranked, ...turns])).filter((row) => row.deleted_at === null);
        assert.deepEqual(
          rankingFacts,
          new Map(rows.map((row) => [row.memory_id, rankingFactsOf(row)])),
          'the ranking facts survive the file, equal to the rows',
        );
        assert.deepEqual(
          ranked.map((id) => [rankingFacts.get(id)!.declared_project, rankingFacts.get(id)!.anchored]),
          [
            ['pebble', true],
            [null, false],
          ],
        );
        assert.equal(rankingFacts.get(ranked[0]!)!.decay_factor, 0.4375);
        const page = { filter: { user_id: user, pinned: true }, sort: 'created' as const, offset: 0, limit: 50 };
        assert.deepEqual(
          await loaded.listMemories(page),
          await rebuilt.listMemories(page),
          'listings read the restored metadata',
        );
      } finally {
        await loaded.close();
        await rebuilt.close();
      }
    });
  });

  it('a listing before the first search (the extraction queue at open, a panel) loads the persisted index too', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const writer = await opened(dataDir);
      await fill(writer, user, 50);
      await search(writer, user, 'pelican');
      await writer.close();
      const fresh = await opened(dataDir);
      try {
        const listed = await fresh.listMemories({
          filter: { user_id: user, tags: ['t2'] },
          sort: 'created',
          offset: 0,
          limit: 100,
        });
        assert.equal(listed.total, 16);
        assert.equal(fresh.indexOrigin(user), 'persisted');
        assert.ok((await search(fresh, user, 'pelican migration')).length > 0);
      } finally {
        await fresh.close();
      }
    });
  });

  it('writes of other processes made after the save are caught up from the change log: new, edited and soft-deleted memories', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const first = await opened(dataDir);
      const memories = await fill(first, user, 60);
      await search(first, user, 'pelican');
      await first.close();

      // Another process, one that does not save indexes, writes after the file was made.
      const other = await opened(dataDir, { persistedIndexes: false });
      const added = makeMemory(user, { content: 'The okapi keeper joined the release calendar', created_at: iso(100) });
      await other.insertMemory(added, null);
      const edited = { ...memories[2]!, content: 'Rewritten: the narwhal owns the pipeline' };
      await rewriteMemory(other, edited);
      await rewriteMemory(other, { ...memories[8]!, deleted_at: iso(101) });
      await other.close();

      const fresh = await opened(dataDir);
      try {
        assert.deepEqual(
          (await search(fresh, user, 'okapi')).map((hit) => hit.memory_id),
          [added.memory_id],
        );
        assert.equal(fresh.indexOrigin(user), 'persisted', 'the file was used, then brought up to date');
        assert.deepEqual(
          (await search(fresh, user, 'narwhal')).map((hit) => hit.memory_id),
          [edited.memory_id],
        );
        const pelican = (await search(fresh, user, 'pelican migration')).map((hit) => hit.memory_id);
        assert.ok(!pelican.includes(memories[2]!.memory_id), 'the edited memory lost its old terms');
        assert.ok(!pelican.includes(memories[8]!.memory_id), 'the soft-deleted memory is not found');
        const trash = await fresh.listMemories({
          filter: { user_id: user, state: 'deleted' },
          sort: 'created',
          offset: 0,
          limit: 10,
        });
        assert.deepEqual(
          trash.items.map((memory) => memory.memory_id),
          [memories[8]!.memory_id],
        );
      } finally {
        await fresh.close();
      }
    });
  });

  it('a loaded index changed in its own process (a new memory, an edit, a forget of a loaded one) answers as one built from the rows, and so does the file it saves', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const first = await opened(dataDir);
      const memories = await fill(first, user, 60);
      await search(first, user, 'pelican');
      await first.close();

      const loaded = await opened(dataDir);
      try {
        assert.ok((await search(loaded, user, 'pelican')).length > 0);
        assert.equal(loaded.indexOrigin(user), 'persisted');
        // The first change after the load is a write: the loaded index makes its per-document copy then.
        await loaded.insertMemory(
          makeMemory(user, { content: 'The okapi keeper joined the pelican migration', created_at: iso(100) }),
          null,
        );
        await rewriteMemory(loaded, { ...memories[2]!, content: 'Rewritten: the narwhal owns the pipeline' });
        await loaded.forgetMemories(user, [memories[8]!.memory_id, memories[14]!.memory_id], iso(101));
      } finally {
        await loaded.close();
      }
      const reloaded = await opened(dataDir);
      const rebuilt = await opened(dataDir, { persistedIndexes: false });
      try {
        for (const text of ['pelican migration', 'okapi', 'narwhal pipeline', 'build cache team'])
          assert.deepEqual(await search(reloaded, user, text), await search(rebuilt, user, text), text);
        assert.equal(reloaded.indexOrigin(user), 'persisted');
        const pelican = (await search(reloaded, user, 'pelican migration')).map((hit) => hit.memory_id);
        assert.ok(!pelican.includes(memories[8]!.memory_id), 'the forgotten memory stays out of the saved file');
        assert.ok(!pelican.includes(memories[2]!.memory_id), 'the edited memory lost its old terms');
      } finally {
        await reloaded.close();
        await rebuilt.close();
      }
    });
  });

  it('a file the change log no longer reaches back to is not trusted: the index is built from the rows', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const first = await opened(dataDir);
      await fill(first, user, 30);
      await search(first, user, 'pelican');
      await first.close();
      const other = await opened(dataDir, {
        persistedIndexes: false,
        changeLogRetention: { keepRows: 2, trimEvery: 1 },
      });
      const late = makeMemory(user, { content: 'A pelican arrived after the trim', created_at: iso(50) });
      await fill(other, user, 5);
      await other.insertMemory(late, null);
      await other.close();

      const fresh = await opened(dataDir);
      try {
        const hits = await search(fresh, user, 'pelican arrived trim');
        assert.equal(hits[0]?.memory_id, late.memory_id);
        assert.equal(fresh.indexOrigin(user), 'rows');
      } finally {
        await fresh.close();
      }
    });
  });

  it('a corrupt file is rebuilt from the rows and replaced by a valid one; a file from another database is not used', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const first = await opened(dataDir);
      await fill(first, user, 40);
      await search(first, user, 'pelican');
      await first.close();
      const [file] = indexFiles(dataDir);
      const bytes = readFileSync(file!);
      bytes[bytes.length - 5] ^= 0x5a;
      writeFileSync(file!, bytes);

      const second = await opened(dataDir);
      const expected = await search(second, user, 'pelican migration');
      assert.equal(second.indexOrigin(user), 'rows');
      await second.close();
      assert.equal(decodeSnapshot(readFileSync(file!)).stamp.userId, user, 'the rewritten file is whole again');

      // The same user in another data directory: the copied file belongs to another database.
      await withDir(async (otherDir) => {
        const foreign = await opened(otherDir);
        const own = makeMemory(user, { content: 'Only the pelican of the other directory' });
        await foreign.insertMemory(own, null);
        await foreign.close();
        mkdirSync(indexDir(otherDir), { recursive: true });
        copyFileSync(file!, join(indexDir(otherDir), file!.split('/').pop()!));
        const reopened = await opened(otherDir);
        try {
          assert.deepEqual(
            (await search(reopened, user, 'pelican')).map((hit) => hit.memory_id),
            [own.memory_id],
          );
          assert.equal(reopened.indexOrigin(user), 'rows');
        } finally {
          await reopened.close();
        }
      });
      assert.ok(expected.length > 0);
    });
  });

  it('a file of the previous format version is rebuilt from the rows and saved in the current format, then loaded', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const first = await opened(dataDir);
      await fill(first, user, 40);
      const turns = await fillTurns(first, user, 9);
      const expectedFacts = await first.turnFacts(user, turns);
      const expected = (await search(first, user, 'pelican migration', { tags: ['t1'] })).map((hit) => hit.memory_id);
      await first.close();
      const [file] = indexFiles(dataDir);
      // Version 3 files hold every cell twice (by document too); the header (outside the checksum) is what the loader reads first.
      const current = readFileSync(file!).toString('latin1');
      assert.ok(current.includes(`"formatVersion":${SNAPSHOT_FORMAT_VERSION}`));
      writeFileSync(
        file!,
        Buffer.from(
          current.replace(
            `"formatVersion":${SNAPSHOT_FORMAT_VERSION}`,
            `"formatVersion":${SNAPSHOT_FORMAT_VERSION - 1}`,
          ),
          'latin1',
        ),
      );

      const second = await opened(dataDir);
      try {
        assert.deepEqual(
          (await search(second, user, 'pelican migration', { tags: ['t1'] })).map((hit) => hit.memory_id),
          expected,
        );
        assert.equal(second.indexOrigin(user), 'rows');
        assert.deepEqual(await second.turnFacts(user, turns), expectedFacts, 'rebuilt with the turn facts');
      } finally {
        await second.close();
      }
      const saved = readFileSync(file!).toString('latin1');
      assert.ok(saved.includes(`"formatVersion":${SNAPSHOT_FORMAT_VERSION}`));
      assert.ok(!saved.includes('"documentTerms"'), 'the cells are saved once, by term');
      const third = await opened(dataDir);
      try {
        assert.deepEqual(
          (await search(third, user, 'pelican migration', { tags: ['t1'] })).map((hit) => hit.memory_id),
          expected,
        );
        assert.equal(third.indexOrigin(user), 'persisted');
        assert.deepEqual(await third.turnFacts(user, turns), expectedFacts, 'loaded with the turn facts');
      } finally {
        await third.close();
      }
    });
  });

  it('an index built from the rows is saved in the background, without waiting for close', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const store = await opened(dataDir, { persistedIndexes: { saveAfterBuildMs: 0 } });
      try {
        await fill(store, user, 10);
        await search(store, user, 'pelican');
        const saved = new Promise<void>((resolve) => {
          const check = (): void => {
            const dir = indexDir(dataDir);
            let names: string[] = [];
            try {
              names = readdirSync(dir);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
            }
            if (names.some((name) => name.endsWith('.fmlidx'))) resolve();
            else setImmediate(check);
          };
          check();
        });
        await saved;
        const [file] = indexFiles(dataDir).filter((path) => path.endsWith('.fmlidx'));
        const snapshot = decodeSnapshot(readFileSync(file!));
        assert.equal(snapshot.metas.ids.length, 10);
        assert.equal(snapshot.lexical.ids.length, 10);
      } finally {
        await store.close();
      }
    });
  });
});

describe('persisted vector codes', () => {
  it(
    'a fresh process loads the vector codes instead of reading every vector, and finds the same nearest memories, new vectors included',
    { timeout: 120_000 },
    async () => {
      await withDir(async (dataDir) => {
        const user = newUserId();
        const dims = 32;
        const random = seededRandom(5);
        // Above the exact-scan size, where the Hamming shortlist (and so the codes) is used.
        const count = EXACT_SCAN_LIMIT + 300;
        const writer = await opened(dataDir);
        const memories = Array.from({ length: count }, (_, index) =>
          makeMemory(user, { content: `Vector note ${index}`, created_at: iso(index) }),
        );
        for (let start = 0; start < count; start += 500) {
          await Promise.all(
            memories
              .slice(start, start + 500)
              .map((memory) => writer.insertMemory(memory, embedding(randomUnitVector(dims, random)))),
          );
        }
        const probe = randomUnitVector(dims, seededRandom(77));
        const query = { filter: { user_id: user }, vector: probe, model: MODEL, limit: 5 };
        await search(writer, user, 'vector note');
        const before = await writer.searchVector(query);
        await writer.close();
        const snapshot = decodeSnapshot(readFileSync(indexFiles(dataDir)[0]!));
        assert.deepEqual(
          snapshot.vectors.map((vectors) => [vectors.model, vectors.dims, vectors.ids.length]),
          [[MODEL, dims, count]],
        );

        // Written by another process after the save: a vector equal to the probe must come first.
        const other = await opened(dataDir, { persistedIndexes: false });
        const closest = makeMemory(user, { content: 'The probe itself', created_at: iso(count + 1) });
        await other.insertMemory(closest, embedding(probe));
        await other.close();

        const fresh = await opened(dataDir);
        try {
          const after = await fresh.searchVector(query);
          assert.equal(fresh.indexOrigin(user), 'persisted');
          assert.equal(
            fresh.vectorIndexOrigin(user, MODEL, dims),
            'persisted',
            'the codes were loaded, not rebuilt from the vectors',
          );
          assert.equal(after[0]!.memory_id, closest.memory_id);
          assert.deepEqual(
            after.slice(1).map((hit) => hit.memory_id),
            before.slice(0, 4).map((hit) => hit.memory_id),
          );
        } finally {
          await fresh.close();
        }
      });
    },
  );
});

describe('persisted index saves racing an erasure', () => {
  it('a save whose snapshot was taken before another process hard-deleted a memory is not published', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const holder = await opened(dataDir, { persistedIndexes: false });
      const eraser = await opened(dataDir, { persistedIndexes: false });
      try {
        const doomed = makeMemory(user, { content: 'The okapi credential rotates on Fridays' });
        await holder.insertMemory(doomed, null);
        await fill(holder, user, 5);
        await search(holder, user, 'okapi');
        // The holder's own save machinery, with the eraser's hard delete committed after the
        // snapshot (taken in the read) and before the temporary file is written: the removal of
        // the user's files finds nothing, so only the check under the write lock can stop it.
        let erased = false;
        class ErasedMeanwhile extends IndexSnapshotFiles {
          override async writeTemporary(userId: string, parts: readonly Uint8Array[]): Promise<string> {
            if (!erased) {
              erased = true;
              assert.equal(await eraser.hardDeleteMemory(user, doomed.memory_id), true);
            }
            return super.writeTemporary(userId, parts);
          }
        }
        const racing = new PersistedIndexes(new ErasedMeanwhile(holder.path), holder['persistedIndexHost']());
        await racing.close();
        assert.ok(erased, 'the save reached its publication step');
        const left = existsSync(indexDir(dataDir)) ? readdirSync(indexDir(dataDir)) : [];
        assert.deepEqual(left, [], 'neither the file nor its temporary copy is left');
      } finally {
        await holder.close();
        await eraser.close();
      }
    });
  });
});

/**
 * Runs `action` while the store's save of `user`'s index is between two slices of its encoding
 * (its snapshot taken, its file not written yet), then waits for that save to end.
 */
async function whileSaveEncodes(store: SqliteMemoryStore, user: string, action: () => Promise<void>): Promise<void> {
  const persisted = store['persisted']!;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = persisted['host'].users.get(user);
    if (state !== undefined && state['freezes'].size > 0) break;
    if (Date.now() > deadline) assert.fail('no save of the index was encoding');
    await new Promise((resolve) => setImmediate(resolve));
  }
  await action();
  await persisted['saving'].get(user);
}

describe('persisted index saves in slices', () => {
  it('a save encodes between requests: changes landing meanwhile (a forget, new tags) stay out of its file and are caught up on load', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const store = await opened(dataDir, { persistedIndexes: { saveAfterBuildMs: 0, saveSliceMs: 0 } });
      const forgotten = makeMemory(user, { content: 'The okapi credential rotates on Fridays' });
      const edited = makeMemory(user, { content: 'The pelican migration runbook lives in the wiki', tags: [] });
      try {
        await store.insertMemory(forgotten, null);
        await store.insertMemory(edited, null);
        await fill(store, user, 2_000);
        await search(store, user, 'pelican');
        let writes = 0;
        const files = store['indexFiles'];
        const write = files.writeTemporary.bind(files);
        files.writeTemporary = (userId, parts) => {
          writes++;
          return write(userId, parts);
        };
        await whileSaveEncodes(store, user, async () => {
          assert.equal(writes, 0, 'the file is not written while the save encodes');
          assert.equal((await store.forgetMemories(user, [forgotten.memory_id], iso(5_000))).changed.length, 1);
          await store.changeMemory({
            user_id: user,
            memory_id: edited.memory_id,
            change: { add_tags: ['late'] },
            at: iso(5_001),
            if_forgotten: 'reject',
          });
        });
        assert.equal(writes, 1);
        // The file holds the state of its snapshot: the edit made while it encoded is not in it.
        const [file] = indexFiles(dataDir).filter((path) => path.endsWith('.fmlidx'));
        const snapshot = decodeSnapshot(readFileSync(file!));
        const row = stringsOf(snapshot.metas.ids).indexOf(edited.memory_id);
        assert.deepEqual(snapshot.metas.meta(row).tags, []);
        assert.equal(snapshot.metas.meta(stringsOf(snapshot.metas.ids).indexOf(forgotten.memory_id)).deleted, false);
        assert.ok(stringsOf(snapshot.lexical.ids).includes(forgotten.memory_id));
      } finally {
        await store.close();
      }
      // A fresh process loads the persisted index and answers as the store is now.
      const fresh = await opened(dataDir, { persistedIndexes: { saveAfterBuildMs: 60_000 } });
      try {
        assert.deepEqual(await search(fresh, user, 'okapi credential'), []);
        assert.deepEqual(
          (await search(fresh, user, 'pelican runbook', { tags: ['late'] })).map((hit) => hit.memory_id),
          [edited.memory_id],
        );
        assert.equal(fresh.indexOrigin(user), 'persisted');
      } finally {
        await fresh.close();
      }
    });
  });

  it('the save close() makes runs in one go: nothing is left waiting on the event loop then', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const store = await opened(dataDir, { persistedIndexes: { saveAfterBuildMs: 60_000, saveSliceMs: 0 } });
      await fill(store, user, 2_000);
      await search(store, user, 'pelican');
      const state = store['persisted']!['host'].users.get(user)!;
      let turnsWithASaveEncoding = 0;
      let closing = true;
      const watch = (): void => {
        if (state['freezes'].size > 0) turnsWithASaveEncoding++;
        if (closing) setImmediate(watch);
      };
      watch();
      await store.close();
      closing = false;
      assert.equal(turnsWithASaveEncoding, 0);
      assert.equal(indexFiles(dataDir).filter((path) => path.endsWith('.fmlidx')).length, 1);
    });
  });

  it('a hard delete landing while a save encodes stops the save: no file, temporary or final, ever holds the erased text', async () => {
    await withDir(async (dataDir) => {
      const user = newUserId();
      const store = await opened(dataDir, { persistedIndexes: { saveAfterBuildMs: 0, saveSliceMs: 0 } });
      const doomed = makeMemory(user, { content: 'The okapi credential rotates on Fridays' });
      try {
        await store.insertMemory(doomed, null);
        await fill(store, user, 2_000);
        await search(store, user, 'okapi');
        let writes = 0;
        const files = store['indexFiles'];
        const write = files.writeTemporary.bind(files);
        files.writeTemporary = (userId, parts) => {
          writes++;
          return write(userId, parts);
        };
        await whileSaveEncodes(store, user, async () => {
          assert.equal(await store.hardDeleteMemory(user, doomed.memory_id), true);
        });
        assert.equal(writes, 0, 'the save stopped before writing anything');
        const left = existsSync(indexDir(dataDir)) ? readdirSync(indexDir(dataDir)) : [];
        assert.deepEqual(left, []);
      } finally {
        await store.close();
      }
      // The save at close starts from the erased state.
      const [file] = indexFiles(dataDir);
      const text = readFileSync(file!);
      assert.equal(text.toString('utf16le').includes('okapi') || text.toString('latin1').includes('okapi'), false);
      assert.equal(stringsOf(decodeSnapshot(text).metas.ids).includes(doomed.memory_id), false);
    });
  });
});
