import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import type { AccessLogEntry, MemoryRecord } from '../../src/core/domain/records.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { duplicateCandidateOf } from '../../src/core/ports/duplicateGuard.ts';
import {
  HeldMemoryRows,
  MAX_HELD_CONTENT,
  MAX_HELD_ROWS,
  processHeldRows,
} from '../../src/stores/sqlite/heldMemoryRows.ts';
import { MemoryRowCache } from '../../src/stores/sqlite/memoryRowCache.ts';
import { insertMemoryRow } from '../../src/stores/sqlite/memoryTables.ts';
import { MEMORY_COLUMNS, memoryRowOf } from '../../src/stores/sqlite/rowMapping.ts';
import { runMigrations } from '../../src/stores/sqlite/migrations.ts';
import { StatementCache } from '../../src/stores/sqlite/statementCache.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { iso, makeMemory, newUserId } from '../contract/fixtures.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';
import { withTwoStores } from '../support/twoStores.ts';

/**
 * Reads of memory rows (getMemories, listMemories) answer from the rows a loaded user's state
 * holds. What must not change: every committed change of a memory, this process's or another's,
 * is in the next read, and each caller gets a record of its own.
 */
function withStores(work: (mine: SqliteMemoryStore, theirs: SqliteMemoryStore, file: DatabaseSync) => Promise<void>) {
  return withTwoStores(async (mine, theirs, dataDir) => {
    // A third connection that reads the file as it is, past both stores' caches.
    const file = new DatabaseSync(join(dataDir, 'memory.db'));
    try {
      await work(mine, theirs, file);
    } finally {
      file.close();
    }
  });
}

/** The memory's row as SQLite holds it. */
const storedRow = (file: DatabaseSync, memoryId: string) =>
  file.prepare(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM long_term_memories WHERE memory_id = ?`).get(memoryId);

const access = (memory: MemoryRecord, id: string, day: number): AccessLogEntry => ({
  access_id: id,
  memory_id: memory.memory_id,
  session_id: null,
  user_id: memory.user_id,
  query_text: null,
  similarity_score: null,
  tool: 'recall_memories',
  accessed_at: iso(day),
});

describe('memory rows held for reads', () => {
  it("follow this process's changes, forgets, access bumps and deletes", async () => {
    await withStores(async (mine) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'heron by the river', tags: ['bird'] });
      const other = makeMemory(user, { content: 'kingfisher on a branch' });
      await mine.insertMemory(memory, null);
      await mine.insertMemory(other, null);
      // A search loads the user's state, so later reads go through its rows.
      await mine.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('heron'), limit: 5 });
      const read = async (id = memory.memory_id) => (await mine.getMemories(user, [id]))[0];
      assert.equal((await read()).content, 'heron by the river');

      // Each caller gets its own record.
      const handed = await read();
      handed.tags.push('changed');
      handed.metadata.note = 'changed';
      handed.content = 'changed';
      assert.deepEqual(await read(), { ...memory, embedding_model: null });

      await rewriteMemory(mine, { ...memory, content: 'grey heron by the river', updated_at: iso(1) });
      assert.equal((await read()).content, 'grey heron by the river');

      await mine.recordAccess([access(memory, 'acc-1', 2), access(memory, 'acc-2', 3)]);
      const bumped = await read();
      assert.equal(bumped.access_count, memory.access_count + 2);
      assert.equal(bumped.last_accessed, iso(3));

      await mine.forgetMemories(user, [memory.memory_id], iso(4));
      assert.equal((await read()).deleted_at, iso(4));
      const listed = await mine.listMemories({
        filter: { user_id: user, state: 'deleted' },
        sort: 'created',
        offset: 0,
        limit: 10,
      });
      assert.deepEqual(
        listed.items.map((m) => [m.memory_id, m.deleted_at]),
        [[memory.memory_id, iso(4)]],
      );
      await mine.restoreMemories(user, [memory.memory_id], iso(5));
      assert.equal((await read()).deleted_at, null);

      assert.equal(await mine.hardDeleteMemory(user, memory.memory_id), true);
      assert.deepEqual(await mine.getMemories(user, [memory.memory_id]), []);
      assert.equal((await read(other.memory_id)).content, 'kingfisher on a branch');
      await mine.deleteUser(user);
      assert.deepEqual(await mine.getMemories(user, [other.memory_id]), []);
    });
  });

  it("follow another process's changes, access bumps, forgets and hard deletes", async () => {
    await withStores(async (mine, theirs) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'otter in the reeds' });
      const gone = makeMemory(user, { content: 'otter tracks in mud' });
      await mine.insertMemory(memory, null);
      await mine.insertMemory(gone, null);
      await mine.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('otter'), limit: 5 });
      const read = async () => await mine.getMemories(user, [memory.memory_id, gone.memory_id]);
      assert.equal((await read()).length, 2);

      await rewriteMemory(theirs, { ...memory, content: 'two otters in the reeds', updated_at: iso(1) });
      assert.equal((await read()).find((m) => m.memory_id === memory.memory_id)?.content, 'two otters in the reeds');

      await theirs.recordAccess([access(memory, 'acc-theirs', 2)]);
      assert.equal((await read()).find((m) => m.memory_id === memory.memory_id)?.access_count, memory.access_count + 1);

      await theirs.forgetMemories(user, [memory.memory_id], iso(3));
      assert.equal((await read()).find((m) => m.memory_id === memory.memory_id)?.deleted_at, iso(3));

      await theirs.hardDeleteMemory(user, gone.memory_id);
      assert.deepEqual(
        (await read()).map((m) => m.memory_id),
        [memory.memory_id],
      );
    });
  });
});

describe('the row an insert keeps for the next read', () => {
  it('is exactly the row SQLite returns for the record written', async () => {
    await withStores(async (mine, theirs, db) => {
      const user = newUserId();
      await mine.insertMemory(makeMemory(user, { content: 'warm the state' }), null);
      await mine.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('warm'), limit: 1 });
      const memories = [
        makeMemory(user),
        makeMemory(user, {
          content: 'lone \uD83D surrogate and a pair \uD83D\uDE00, \uDE00 reversed',
          summary: 'summary \uDFFF',
          entities: ['Ada', '\uD800'],
          tags: ['t'],
          metadata: { nested: { list: [1, 'two', null, 2.5] }, text: 'odd \uDBFF' },
          event_time: iso(2),
          is_temporal: true,
          importance: 0.3333333333333333,
          access_count: 12,
          decay_factor: 1,
          related_memories: ['mem_a'],
          supersedes: 'mem_b',
          source_session: 'sess-1',
          confidence: 0.1 + 0.2,
          pinned: true,
          deleted_at: null,
        }),
      ];
      for (const memory of memories) {
        await mine.insertMemory(memory, null);
        const stored = storedRow(db, memory.memory_id);
        assert.deepEqual({ ...memoryRowOf({ ...memory, embedding_model: null }) }, { ...stored });
        assert.deepEqual(
          await mine.getMemories(user, [memory.memory_id]),
          await theirs.getMemories(user, [memory.memory_id]),
          'held and read rows make the same record',
        );
      }
    });
  });
});

describe('the row a change keeps for the next read', () => {
  it('is the row SQLite holds, and the warm indexes take the change without reading it back', async () => {
    await withStores(async (mine, theirs, db) => {
      const user = newUserId();
      const probe = new Float32Array([1, 0, 0, 0]);
      const memory = makeMemory(user, { content: 'walrus on the ice', tags: ['arctic'], embedding_model: 'm' });
      await mine.insertMemory(memory, { model: 'm', vector: new Float32Array([0, 1, 0, 0]) });
      const lexical = async (store: SqliteMemoryStore, word: string) =>
        (await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery(word), limit: 5 })).map(
          (hit) => hit.memory_id,
        );
      const nearest = async (store: SqliteMemoryStore) =>
        (await store.searchVector({ filter: { user_id: user }, vector: probe, model: 'm', limit: 1 }))[0]?.similarity;
      assert.deepEqual(await lexical(mine, 'walrus'), [memory.memory_id]);
      const farScore = await nearest(mine);

      const changes: Array<[string, Parameters<SqliteMemoryStore['changeMemory']>[0]['change']]> = [
        ['text and tags', { content: 'narwhal \uD800 under the ice', add_tags: ['sea'] }],
        ['a vector', { embedding: { model: 'm', vector: probe } }],
        ['bookkeeping only', { access: { count: 9, last_accessed: iso(3) } }],
        ['metadata, vector kept', { merge_metadata: { note: 'seen twice' }, set: { importance: 0.75 } }],
      ];
      for (const [what, change] of changes) {
        const outcome = await mine.changeMemory({
          user_id: user,
          memory_id: memory.memory_id,
          change,
          at: iso(1),
          if_forgotten: 'reject',
        });
        assert.equal(outcome.status, 'applied', what);
        const stored = storedRow(db, memory.memory_id);
        const [held] = await mine.getMemories(user, [memory.memory_id]);
        assert.deepEqual(held, (await theirs.getMemories(user, [memory.memory_id]))[0], what);
        assert.deepEqual({ ...memoryRowOf(held) }, { ...stored }, what);
      }
      assert.deepEqual(await lexical(mine, 'walrus'), []);
      assert.deepEqual(await lexical(mine, 'narwhal'), [memory.memory_id]);
      assert.deepEqual(await lexical(mine, 'sea'), [memory.memory_id]);
      assert.deepEqual(await lexical(mine, 'narwhal'), await lexical(theirs, 'narwhal'));
      const closeScore = await nearest(mine);
      assert.ok(
        closeScore !== undefined && farScore !== undefined && closeScore > farScore,
        'the new vector is indexed',
      );
      assert.equal(closeScore, await nearest(theirs));
    });
  });
});

describe('MemoryRowCache', () => {
  it('reads a row from SQLite once, then from memory until it is dropped; a bump is applied to the row held', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-row-cache-unit-'));
    const db = new DatabaseSync(join(dataDir, 'memory.db'));
    try {
      runMigrations(db);
      const sql = new StatementCache(db);
      const user = newUserId();
      const budget = 64;
      const memories = Array.from({ length: budget + 1 }, (_, index) => makeMemory(user, { content: `note ${index}` }));
      for (const memory of memories) insertMemoryRow(sql, memory);
      const cache = new MemoryRowCache(new HeldMemoryRows(budget));
      const statements = () => sql.handedOut;
      const ids = memories.map((m) => m.memory_id);

      const before = statements();
      assert.deepEqual(cache.read(sql, user, [ids[0], ids[0], 'missing']), [memories[0]]);
      assert.equal(statements(), before + 1);
      assert.deepEqual(cache.read(sql, user, [ids[0]]), [memories[0]]);
      assert.equal(statements(), before + 1, 'held: no statement');
      assert.deepEqual(cache.read(sql, newUserId(), [ids[1]]), [], "another user's id is not this user's row");

      cache.touch(ids[0], 7, iso(9));
      assert.deepEqual(cache.read(sql, user, [ids[0]]), [{ ...memories[0], access_count: 7, last_accessed: iso(9) }]);
      cache.drop(ids[0]);
      assert.deepEqual(cache.read(sql, user, [ids[0]]), [memories[0]], 'dropped: read again');
      assert.equal(statements(), before + 3);

      // Bounded: the least recently read row goes first.
      cache.read(sql, user, ids);
      const afterAll = statements();
      assert.equal(cache.read(sql, user, ids.slice(2)).length, budget - 1);
      assert.equal(statements(), afterAll, 'the newest rows are held');
      assert.equal(cache.read(sql, user, [ids[0]]).length, 1);
      assert.equal(statements(), afterAll + 1, 'the oldest was let go');
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('holds one budget of rows for all users of the process: many users reading rows never hold more than it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-row-cache-users-'));
    const db = new DatabaseSync(join(dataDir, 'memory.db'));
    try {
      runMigrations(db);
      const sql = new StatementCache(db);
      // Each user reads more than a quarter of the budget: a bound per user would hold all of it.
      const perUser = Math.ceil(MAX_HELD_ROWS / 4) + 16;
      db.exec('BEGIN');
      const users = Array.from({ length: 6 }, () => {
        const user = newUserId();
        const ids = Array.from({ length: perUser }, (_, index) => {
          const memory = makeMemory(user, { content: `row ${index} of ${user}` });
          insertMemoryRow(sql, memory);
          return memory.memory_id;
        });
        return { user, ids, cache: new MemoryRowCache() };
      });
      db.exec('COMMIT');
      let largest = 0;
      for (const { user, ids, cache } of users) {
        assert.equal(cache.read(sql, user, ids).length, perUser);
        largest = Math.max(largest, processHeldRows.size);
      }
      assert.ok(largest <= MAX_HELD_ROWS, `held ${largest} rows, budget ${MAX_HELD_ROWS}`);
      assert.ok(processHeldRows.content <= MAX_HELD_CONTENT);

      // Least recently used first across users: the last user's rows are all held, the first's are gone.
      const last = users.at(-1)!;
      const first = users[0];
      const before = sql.handedOut;
      last.cache.read(sql, last.user, last.ids);
      assert.equal(sql.handedOut, before, "the newest user's rows are held");
      first.cache.read(sql, first.user, first.ids.slice(0, 1));
      assert.equal(sql.handedOut, before + 1, "the oldest user's first row was let go");
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('holds characters of content within one budget across users', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-row-cache-content-'));
    const db = new DatabaseSync(join(dataDir, 'memory.db'));
    try {
      runMigrations(db);
      const sql = new StatementCache(db);
      const held = new HeldMemoryRows(1000, 10_000);
      for (let u = 0; u < 5; u++) {
        const user = newUserId();
        const ids = Array.from({ length: 4 }, (_, index) => {
          const memory = makeMemory(user, { content: `${index}`.padEnd(1_000, 'x') });
          insertMemoryRow(sql, memory);
          return memory.memory_id;
        });
        new MemoryRowCache(held).read(sql, user, ids);
        assert.ok(held.content <= 10_000, `held ${held.content} characters`);
      }
      assert.equal(held.size, 10);
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
  it('answers duplicate candidates from held rows exactly as a read of the file does', async () => {
    await withStores(async (mine, theirs) => {
      const user = newUserId();
      const metadatas: Array<Record<string, unknown>> = [
        {},
        { fact: { category: 'preference', key: 'editor', value: 'vim' } },
        { fact: { category: 'tool', key: 'a/b "quoted" ü', value: 'x' }, other: [1, 2] },
        { fact: { category: 'tool', key: 42 } },
        { fact: ['preference', 'editor'] },
        { fact: 'preference/editor' },
      ];
      const memories = metadatas.map((metadata, index) =>
        makeMemory(user, { content: `pelican ${'heron '.repeat(index)}candidate ${index}`, metadata }),
      );
      for (const memory of memories) await mine.insertMemory(memory, null);
      const query = { filter: { user_id: user }, terms: analyzeQuery('pelican heron'), limit: 20 };
      // The other store holds none of the rows: it reads them from the file.
      const fromFile = await theirs.duplicateCandidates(query);
      assert.equal(fromFile.length, memories.length);
      // This one holds every row once its user is loaded and it has read them in full.
      assert.deepEqual(await mine.duplicateCandidates(query), fromFile);
      const ids = fromFile.map((candidate) => candidate.memory_id);
      const records = new Map((await mine.getMemories(user, ids)).map((memory) => [memory.memory_id, memory]));
      assert.deepEqual(await mine.duplicateCandidates(query), fromFile);
      assert.deepEqual(
        fromFile,
        ids.map((id) => duplicateCandidateOf(records.get(id)!)),
      );
      assert.deepEqual(
        fromFile
          .filter((candidate) => candidate.fact !== null)
          .map((candidate) => candidate.fact)
          .sort(),
        ['preference/editor', 'tool/a/b "quoted" ü'],
      );
    });
  });
});
