import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { MemoryRecord } from '../../src/core/domain/records.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import {
  makeAccess,
  makeMemory,
  makeSession,
  makeWorkingItem,
  randomUnitVector,
  seededRandom,
} from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';
import type { FireboltTestServer } from '../support/firebolt-server/server.ts';

/**
 * Strings built from the characters that break naive SQL quoting: quotes, backslashes, `$n`
 * placeholders, comment openers, LIKE wildcards, control characters, astral and RTL text.
 * NUL and lone surrogates are left out: Firebolt TEXT is UTF-8 without NUL.
 */
const PIECES = [
  "'",
  "''",
  '"',
  '\\',
  "\\'",
  '$1',
  '$2',
  '$$',
  '--',
  '/*',
  '*/',
  ';',
  '%',
  '_',
  '?',
  ':name',
  '\n',
  '\r\n',
  '\t',
  '\u0001',
  'é',
  'e\u0301',
  '🧠',
  '記憶',
  'שלום',
  ' ',
  'DROP TABLE fml_memories',
  '[1,2]',
  '{"a":1}',
  'NULL',
];
const hostile = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).filter((text) => !text.includes('\u0000')),
);

describe('hostile strings round-trip through every FireboltStore path', () => {
  let server: FireboltTestServer;
  let store: FireboltStore;
  before(async () => {
    server = await startFireboltTestServer();
    store = new FireboltStore({ kind: 'core', url: server.url, database: 'hostile' });
    await store.open();
  });
  after(async () => {
    await store.close();
    await server.close();
  });

  test('memories, sessions, working items, access log, filters and searches', async () => {
    const vector = randomUnitVector(4, seededRandom(5));
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, hostile, async (user, text, label, key) => {
        const memory: MemoryRecord = makeMemory(user, {
          memory_id: `${text}#${label}`,
          org_id: label,
          project_id: key,
          content: text,
          summary: label,
          entities: [text, label],
          tags: [key],
          metadata: { [key]: text, nested: [label, null, { [text]: key }] },
          related_memories: [label],
          supersedes: text,
          source_session: key,
          embedding_model: label,
        });
        await store.insertMemory(memory, { model: label, vector });
        assert.deepEqual(await store.getMemories(user, [memory.memory_id]), [memory]);
        const listed = await store.listMemories({
          filter: { user_id: user, project_id: key, entities: [label], tags: [key] },
          sort: 'created',
          offset: 0,
          limit: 10,
        });
        assert.deepEqual(
          listed.items.map((m) => m.memory_id),
          [memory.memory_id],
        );
        const embeddings = await store.getEmbeddings(user, [memory.memory_id]);
        assert.equal(embeddings.get(memory.memory_id)?.model, label);
        const hits = await store.searchVector({ filter: { user_id: user }, vector, model: label, limit: 3 });
        assert.deepEqual(
          hits.map((h) => h.memory_id),
          [memory.memory_id],
        );
        const lexical = await store.searchLexical({
          filter: { user_id: user },
          terms: [
            { term: text, weight: 1 },
            { term: key, weight: 0.5 },
          ],
          limit: 3,
        });
        assert.ok(Array.isArray(lexical));

        const session = makeSession(user, {
          session_id: `${key}|${text}`,
          org_id: text,
          project_id: label,
          config: { [label]: key },
        });
        const item = makeWorkingItem(session, 0, { item_id: label, content: text, metadata: { [text]: label } });
        await store.commitWorking({ session, upsert: [item], delete: [] });
        assert.deepEqual(await store.getSession(session.session_id), session);
        assert.deepEqual(await store.listWorkingItems(session.session_id), [item]);
        await store.commitWorking({ session, upsert: [], delete: [label] });
        assert.deepEqual(await store.listWorkingItems(session.session_id), []);

        await store.recordAccess([
          makeAccess(memory, { access_id: key, query_text: text, tool: label, session_id: session.session_id }),
        ]);
        assert.equal((await store.stats(user)).access_log_entries, 1);

        const receipt = await store.deleteUser(user);
        assert.deepEqual(receipt, {
          memories_deleted: 1,
          sessions_deleted: 1,
          working_items_deleted: 0,
          access_log_deleted: 1,
        });
      }),
      { numRuns: 25 },
    );
  });

  test('the same strings survive the literal path (values too long for the URL travel in the body)', async () => {
    const pad = 'é'.repeat(1500);
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, async (user, text, key) => {
        const memory: MemoryRecord = makeMemory(user, {
          content: `${text}${pad}`,
          summary: `${pad}${key}`,
          entities: [text, key],
          tags: [],
          metadata: { [key]: `${text}${pad}` },
        });
        const before = server.requests.length;
        await store.insertMemory(memory, null);
        const inlined = server.requests
          .slice(before)
          .find((request) => request.body.startsWith('INSERT INTO fml_memories'));
        assert.equal(inlined?.params.query_parameters, undefined, 'the memory row went through the literal path');
        assert.deepEqual(await store.getMemories(user, [memory.memory_id]), [memory]);
        const session = makeSession(user, { config: { [key]: pad } });
        const item = makeWorkingItem(session, 0, { content: `${pad}${text}`, metadata: { [text]: key } });
        await store.commitWorking({ session, upsert: [item], delete: [] });
        assert.deepEqual(await store.listWorkingItems(session.session_id), [item]);
        await store.deleteUser(user);
      }),
      { numRuns: 15 },
    );
  });
});
