import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { LATEST_SCHEMA_VERSION } from '../../src/stores/sqlite/migrations.ts';
import {
  MODEL,
  embedding,
  iso,
  makeMemory,
  makeSession,
  makeWorkingItem,
  newUserId,
  randomUnitVector,
  seededRandom,
  vectorNear,
} from '../contract/fixtures.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

const WORKER = new URL('./support/storeWorker.ts', import.meta.url).pathname;

interface WorkerOutcome {
  ok: boolean;
  code?: string;
  message?: string;
  result?: unknown;
}

function runWorker(
  command: Record<string, unknown>,
  options: { uid?: number; gid?: number } = {},
): Promise<WorkerOutcome> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [WORKER, JSON.stringify(command)],
      { timeout: 60_000, ...options },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        if (line.startsWith('{')) resolve(JSON.parse(line) as WorkerOutcome);
        else reject(new Error(`worker failed: ${error?.message ?? ''}\n${stderr}`));
      },
    );
  });
}

async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'fml-sqlite-'));
  try {
    return await work(dir);
  } finally {
    await chmod(dir, 0o755);
    await rm(dir, { recursive: true, force: true });
  }
}

async function opened(dataDir: string): Promise<SqliteMemoryStore> {
  const store = new SqliteMemoryStore({ dataDir });
  await store.open();
  return store;
}

describe('SqliteMemoryStore', () => {
  it('creates the data directory and keeps memories across close and reopen', async () => {
    await withTempDir(async (root) => {
      const dataDir = join(root, 'nested', 'data');
      const user = newUserId();
      const vector = randomUnitVector(8, seededRandom(1));
      const memory = makeMemory(user, { content: 'Persisted pelican fact', embedding_model: MODEL });
      const first = await opened(dataDir);
      await first.insertMemory(memory, embedding(vector));
      await first.close();

      const second = await opened(dataDir);
      assert.deepEqual(await second.getMemories(user, [memory.memory_id]), [memory]);
      const hits = await second.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('pelican'), limit: 5 });
      assert.deepEqual(
        hits.map((h) => h.memory_id),
        [memory.memory_id],
      );
      const vectorHits = await second.searchVector({ filter: { user_id: user }, vector, model: MODEL, limit: 5 });
      assert.equal(vectorHits[0].memory_id, memory.memory_id);
      assert.equal(vectorHits[0].method, 'exact');
      await second.close();
    });
  });

  it('runs migrations once, in WAL mode, and reopening is a no-op', async () => {
    await withTempDir(async (dataDir) => {
      for (let i = 0; i < 3; i++) await (await opened(dataDir)).close();
      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      const versions = db
        .prepare('SELECT version FROM schema_version ORDER BY version')
        .all()
        .map((r) => r.version);
      const mode = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
      db.close();
      assert.deepEqual(
        versions,
        Array.from({ length: LATEST_SCHEMA_VERSION }, (_, index) => index + 1),
      );
      assert.equal(mode.journal_mode, 'wal');
    });
  });

  it('upgrades a file from before memory layers: existing memories become the user layer of their user', async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'Written before layers existed.' });
      const first = await opened(dataDir);
      await first.insertMemory(memory, null);
      await first.close();
      // Back to schema 2, as an older build left the file.
      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      db.exec(
        `ALTER TABLE long_term_memories DROP COLUMN layer; ALTER TABLE long_term_memories DROP COLUMN scope_id;
         ALTER TABLE long_term_memories DROP COLUMN version; DROP TABLE erased_memories;
         DELETE FROM schema_version WHERE version >= 3;`,
      );
      db.close();
      const upgraded = await opened(dataDir);
      const [back] = await upgraded.getMemories(user, [memory.memory_id]);
      assert.equal(back.layer, 'user');
      assert.equal(back.scope_id, user);
      assert.deepEqual(back, memory);
      await upgraded.close();
    });
  });

  it('honours a custom file name', async () => {
    await withTempDir(async (dataDir) => {
      const store = new SqliteMemoryStore({ dataDir, fileName: 'other.sqlite' });
      await store.open();
      assert.equal(store.path, join(dataDir, 'other.sqlite'));
      assert.equal((await store.health()).status, 'healthy');
      await store.close();
      assert.equal((await store.health()).status, 'unhealthy');
    });
  });

  it('loses and duplicates nothing when three processes write the same directory at once', async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const perProcess = 150;
      const prefixes = ['alpha', 'bravo', 'charlie'];
      // Opened first so this process also holds a connection and warm caches while others write.
      const store = await opened(dataDir);
      await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('note'), limit: 1 });
      const outcomes = await Promise.all(
        prefixes.map((prefix) => runWorker({ kind: 'write', dataDir, userId: user, prefix, count: perProcess })),
      );
      for (const outcome of outcomes) assert.ok(outcome.ok, JSON.stringify(outcome));

      const listed = await store.listMemories({ filter: { user_id: user }, sort: 'created', offset: 0, limit: 10_000 });
      assert.equal(listed.total, perProcess * prefixes.length);
      const ids = listed.items.map((m) => m.memory_id);
      assert.equal(new Set(ids).size, ids.length);
      for (const prefix of prefixes) {
        for (let i = 0; i < perProcess; i++) assert.ok(ids.includes(`${prefix}_${i}`), `${prefix}_${i} present`);
      }
      assert.equal((await store.stats(user)).embedded, perProcess * prefixes.length);
      const hits = await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('bravo'), limit: 1_000 });
      assert.equal(hits.length, perProcess, 'lexical index caught up with the other processes');
      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
      db.close();
      await store.close();
    });
  });

  it("sees another process's inserts, soft deletes and hard deletes in warm lexical and vector indexes", async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const random = seededRandom(5);
      const probe = randomUnitVector(8, random);
      const store = await opened(dataDir);
      const kept = makeMemory(user, { content: 'gecko gecko kept', embedding_model: MODEL });
      const softened = makeMemory(user, { content: 'gecko soon trashed', embedding_model: MODEL });
      const removed = makeMemory(user, { content: 'gecko soon removed', embedding_model: MODEL });
      for (const memory of [kept, softened, removed])
        await store.insertMemory(memory, embedding(vectorNear(probe, 0.5, random)));
      const lexical = async () =>
        (await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('gecko'), limit: 10 }))
          .map((h) => h.memory_id)
          .sort();
      const vector = async () =>
        (await store.searchVector({ filter: { user_id: user }, vector: probe, model: MODEL, limit: 10 })).map(
          (h) => h.memory_id,
        );
      assert.equal((await lexical()).length, 3);
      assert.equal((await vector()).length, 3);
      const tokenBefore = await store.changeToken();
      const foreignBefore = await store.foreignChangeToken();
      // This process's own writes move the change token but not the foreign one.
      await store.recordAccess([
        {
          access_id: 'acc_own_write',
          memory_id: kept.memory_id,
          session_id: null,
          user_id: user,
          query_text: 'gecko',
          similarity_score: null,
          tool: 'recall_memories',
          accessed_at: new Date().toISOString(),
        },
      ]);
      assert.notEqual(await store.changeToken(), tokenBefore, 'an own write moves the change token');
      assert.equal(await store.foreignChangeToken(), foreignBefore, 'an own write leaves the foreign token');

      const outcome = await runWorker({
        kind: 'mutate',
        dataDir,
        userId: user,
        insert: [{ memory_id: 'from_other_process', content: 'gecko arrived from elsewhere', vector: [...probe] }],
        softDelete: [softened.memory_id],
        hardDelete: [removed.memory_id],
      });
      assert.ok(outcome.ok, JSON.stringify(outcome));

      assert.notEqual(await store.changeToken(), tokenBefore);
      assert.notEqual(await store.foreignChangeToken(), foreignBefore, 'another process moves the foreign token');
      assert.deepEqual(await lexical(), ['from_other_process', kept.memory_id].sort());
      const vectorHits = await vector();
      assert.equal(vectorHits[0], 'from_other_process');
      assert.deepEqual([...vectorHits].sort(), ['from_other_process', kept.memory_id].sort());
      const trash = await store.listMemories({
        filter: { user_id: user, state: 'deleted' },
        sort: 'created',
        offset: 0,
        limit: 10,
      });
      assert.deepEqual(
        trash.items.map((m) => m.memory_id),
        [softened.memory_id],
      );
      await store.close();
    });
  });

  it('keeps a second connection in step: updates, access bumps and deleteUser', async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const reader = await opened(dataDir);
      const writer = await opened(dataDir);
      const memory = makeMemory(user, { content: 'ocelot fact', embedding_model: MODEL });
      const other = makeMemory(user, { content: 'unrelated', embedding_model: MODEL });
      await writer.insertMemory(memory, null);
      await writer.insertMemory(other, null);
      const byAccess = async () =>
        (
          await reader.listMemories({ filter: { user_id: user }, sort: 'access_count', offset: 0, limit: 10 })
        ).items.map((m) => m.memory_id);
      assert.equal((await byAccess()).length, 2);
      await reader.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('ocelot'), limit: 5 });

      await rewriteMemory(writer, { ...memory, content: 'lynx fact' });
      assert.deepEqual(
        await reader.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('ocelot'), limit: 5 }),
        [],
      );
      const lynx = await reader.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('lynx'), limit: 5 });
      assert.deepEqual(
        lynx.map((h) => h.memory_id),
        [memory.memory_id],
      );

      for (let i = 0; i < 3; i++) {
        await writer.recordAccess([
          {
            access_id: `acc_${i}`,
            memory_id: other.memory_id,
            session_id: null,
            user_id: user,
            query_text: null,
            similarity_score: null,
            tool: 'recall',
            accessed_at: iso(3),
          },
        ]);
      }
      assert.deepEqual(await byAccess(), [other.memory_id, memory.memory_id]);

      await writer.deleteUser(user);
      assert.deepEqual(await byAccess(), []);
      assert.deepEqual(
        await reader.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('lynx'), limit: 5 }),
        [],
      );
      await writer.close();
      await reader.close();
    });
  });

  it("serves a session's working items from memory and still sees another process's working-memory writes", async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const mine = await opened(dataDir);
      const theirs = await opened(dataDir);
      const session = makeSession(user);
      const first = makeWorkingItem(session, 1, { content: 'first' });
      const second = makeWorkingItem(session, 2, { content: 'second' });
      await mine.commitWorking({ session, upsert: [second, first], delete: [] });
      const ids = async (store: SqliteMemoryStore) =>
        (await store.listWorkingItems(session.session_id)).map((item) => item.content);
      assert.deepEqual(await ids(mine), ['first', 'second']);

      // Own commits update the cached list in place, in the store's order.
      const third = makeWorkingItem(session, 3, { content: 'third' });
      await mine.commitWorking({
        session,
        upsert: [third, { ...first, content: 'first, edited' }],
        delete: [second.item_id],
      });
      assert.deepEqual(await ids(mine), ['first, edited', 'third']);

      // Another process's commit is seen although this process has the session cached.
      assert.deepEqual(await ids(theirs), ['first, edited', 'third']);
      await theirs.commitWorking({
        session,
        upsert: [makeWorkingItem(session, 4, { content: 'fourth' })],
        delete: [third.item_id],
      });
      assert.deepEqual(await ids(mine), ['first, edited', 'fourth']);

      // Records are shared between callers, so they cannot be changed in place; each caller gets its own array.
      const listed = await mine.listWorkingItems(session.session_id);
      assert.throws(() => {
        (listed[0] as { content: string }).content = 'changed';
      }, TypeError);
      assert.throws(() => {
        (listed[0].metadata as Record<string, unknown>).note = 'changed';
      }, TypeError);
      listed.pop();
      assert.deepEqual(await ids(mine), ['first, edited', 'fourth']);

      await mine.deleteUser(user);
      assert.deepEqual(await ids(mine), []);
      await theirs.close();
      await mine.close();
      const reopened = await opened(dataDir);
      assert.deepEqual(await ids(reopened), []);
      await reopened.close();
    });
  });

  it('trims the change log and a reader that fell behind the trim rebuilds its caches', async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const retention = { keepRows: 5, trimEvery: 3 };
      const reader = new SqliteMemoryStore({ dataDir, changeLogRetention: retention });
      const writer = new SqliteMemoryStore({ dataDir, changeLogRetention: retention });
      await reader.open();
      await writer.open();
      const first = makeMemory(user, { content: 'marmot first' });
      await writer.insertMemory(first, null);
      const search = async () =>
        (await reader.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('marmot'), limit: 100 }))
          .map((h) => h.memory_id)
          .sort();
      assert.deepEqual(await search(), [first.memory_id]);
      const later = Array.from({ length: 20 }, (_, i) => makeMemory(user, { content: `marmot later ${i}` }));
      for (const memory of later) await writer.insertMemory(memory, null);
      await writer.hardDeleteMemory(user, first.memory_id);

      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      const logRows = (db.prepare('SELECT COUNT(*) AS n FROM change_log').get() as { n: number }).n;
      db.close();
      assert.ok(logRows <= retention.keepRows + retention.trimEvery, `change_log holds ${logRows} rows`);
      assert.deepEqual(await search(), later.map((m) => m.memory_id).sort());
      await writer.close();
      await reader.close();
    });
  });

  it('stores lexical analysis with the row and reuses it when building an index', async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const memory = makeMemory(user, { content: 'The ibis service handles invoices.', tags: ['billing'] });
      const writer = await opened(dataDir);
      await writer.insertMemory(memory, null);
      await writer.close();
      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      const stored = db.prepare('SELECT terms FROM lexical_documents WHERE memory_id = ?').get(memory.memory_id) as {
        terms: string;
      };
      assert.ok(JSON.parse(stored.terms).length > 0);
      // Forget the analysis: the next index build must analyse the text again and store it back.
      db.prepare('DELETE FROM lexical_documents').run();
      db.close();
      const reader = await opened(dataDir);
      const hits = await reader.searchLexical({
        filter: { user_id: user },
        terms: analyzeQuery('ibis billing'),
        limit: 5,
      });
      assert.deepEqual(
        hits.map((h) => h.memory_id),
        [memory.memory_id],
      );
      await reader.close();
      const check = new DatabaseSync(join(dataDir, 'memory.db'));
      const restored = check.prepare('SELECT COUNT(*) AS n FROM lexical_documents').get() as { n: number };
      check.close();
      assert.equal(restored.n, 1);
    });
  });

  it('reports STORAGE_READ_ONLY for a data directory this process cannot write', async (t) => {
    await withTempDir(async (root) => {
      const dataDir = join(root, 'locked');
      await mkdir(dataDir);
      const seeded = await opened(dataDir);
      await seeded.insertMemory(makeMemory(newUserId()), null);
      await seeded.close();
      await chmod(root, 0o755);
      await chmod(dataDir, 0o555);
      await chmod(join(dataDir, 'memory.db'), 0o444);
      if (process.platform === 'win32') {
        t.skip('POSIX permission bits do not apply on Windows');
        return;
      }
      // Root ignores permission bits, so the probe runs as nobody.
      const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const existing = await runWorker({ kind: 'open', dataDir }, asNobody);
      assert.equal(existing.ok, false);
      assert.equal(existing.code, 'STORAGE_READ_ONLY', JSON.stringify(existing));
      const missing = await runWorker({ kind: 'open', dataDir: join(dataDir, 'sub') }, asNobody);
      assert.equal(missing.code, 'STORAGE_READ_ONLY', JSON.stringify(missing));
    });
  });

  it('reports STORAGE_FULL when the database cannot grow, without losing earlier rows', async () => {
    await withTempDir(async (dataDir) => {
      const user = newUserId();
      const store = await opened(dataDir);
      const early = makeMemory(user, { content: 'early heron row' });
      await store.insertMemory(early, null);
      // Reach into the connection to cap its size: the portable way to make SQLite report SQLITE_FULL.
      const connection = (store as unknown as { connection: { db: DatabaseSync } }).connection;
      const pages = connection.db.prepare('PRAGMA page_count').get() as { page_count: number };
      connection.db.exec(`PRAGMA max_page_count = ${pages.page_count + 2}`);
      const huge = makeMemory(user, { content: 'heron '.repeat(200_000) });
      await assert.rejects(store.insertMemory(huge, null), (error: unknown) => MemoryError.is(error, 'STORAGE_FULL'));
      assert.deepEqual(await store.getMemories(user, [huge.memory_id]), []);
      const hits = await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('heron'), limit: 5 });
      assert.deepEqual(
        hits.map((h) => h.memory_id),
        [early.memory_id],
      );
      connection.db.exec('PRAGMA max_page_count = 1073741823');
      await store.insertMemory(makeMemory(user), null);
      assert.equal(
        (connection.db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check,
        'ok',
      );
      await store.close();
    });
  });

  describe('vector search at 5,000 x 384', () => {
    const dims = 384;
    const user = newUserId();
    const random = seededRandom(2024);
    const planted: { query: Float32Array; memoryId: string }[] = [];
    let dataDir = '';
    let store: SqliteMemoryStore;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'fml-sqlite-vectors-'));
      store = await opened(dataDir);
      for (let i = 0; i < 5_000; i++) {
        const memory = makeMemory(user, {
          memory_id: `vec_${i}`,
          content: `vector row ${i}`,
          memory_category: i % 2 === 0 ? 'semantic' : 'procedural',
          memory_subtype: i % 2 === 0 ? 'project' : 'workflow',
          embedding_model: MODEL,
        });
        let vector = randomUnitVector(dims, random);
        if (i % 100 === 7) {
          const query = randomUnitVector(dims, random);
          vector = vectorNear(query, 0.85, random);
          planted.push({ query, memoryId: memory.memory_id });
        }
        await store.insertMemory(memory, embedding(vector));
      }
    });
    after(async () => {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('finds every planted near-duplicate first with binary+rerank', async () => {
      for (const { query, memoryId } of planted) {
        const hits = await store.searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 10 });
        assert.equal(hits.length, 10);
        assert.equal(hits[0].memory_id, memoryId);
        assert.equal(hits[0].method, 'binary+rerank');
        assert.ok(hits[0].similarity > 0.8);
      }
    });

    it('applies filters to every candidate before the cut', async () => {
      const { query, memoryId } = planted[0];
      const index = Number(memoryId.slice(4));
      const otherCategory = index % 2 === 0 ? 'procedural' : 'semantic';
      const hits = await store.searchVector({
        filter: { user_id: user, categories: [otherCategory] },
        vector: query,
        model: MODEL,
        limit: 10,
      });
      assert.equal(hits.length, 10);
      assert.ok(!hits.some((h) => h.memory_id === memoryId));
      const rows = await store.getMemories(
        user,
        hits.map((h) => h.memory_id),
      );
      assert.ok(rows.every((m) => m.memory_category === otherCategory));
    });
  });
});
