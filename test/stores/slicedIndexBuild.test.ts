import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { embedding, iso, makeMemory, MODEL, newUserId, randomUnitVector, seededRandom } from '../contract/fixtures.ts';
import { turnsDuring } from '../support/eventLoopTurns.ts';

const ROWS = 5_500;
const DIMS = 16;

describe('index builds in slices', () => {
  it(
    'the first full-text and vector searches build their indexes yielding between pages, and writes made meanwhile are in the result',
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'fml-sliced-'));
      const store = new SqliteMemoryStore({ dataDir });
      await store.open();
      try {
        const user = newUserId();
        const random = seededRandom(11);
        const ids: string[] = [];
        for (let index = 0; index < ROWS; index++) {
          const memory = makeMemory(user, {
            content: `Routine note ${index} about the build server`,
            created_at: iso(index),
          });
          ids.push(memory.memory_id);
          await store.insertMemory(memory, embedding(randomUnitVector(DIMS, random)));
        }
        // A second process would see the same: reopen, so nothing is cached.
        await store.close();
        const reopened = new SqliteMemoryStore({ dataDir });
        await reopened.open();
        try {
          const search = reopened.searchLexical({
            filter: { user_id: user },
            terms: analyzeQuery('pelican'),
            limit: 5,
          });
          // Written while the build runs: one new memory to find, one old one deleted.
          const late = makeMemory(user, {
            content: 'A pelican joined the build server team',
            created_at: iso(ROWS + 1),
          });
          const writes = Promise.all([
            reopened.insertMemory(late, null),
            reopened.hardDeleteMemory(user, ids[ROWS - 1]!),
          ]);
          const { value: hits, turns } = await turnsDuring(search);
          await writes;
          assert.ok(turns >= Math.floor(ROWS / 1_000), `the build yielded ${turns} times for ${ROWS} rows`);
          const after = await reopened.searchLexical({
            filter: { user_id: user },
            terms: analyzeQuery('pelican'),
            limit: 5,
          });
          assert.deepEqual(
            after.map((hit) => hit.memory_id),
            [late.memory_id],
            'the memory written during the build is indexed',
          );
          assert.ok(hits.length <= 1);
          const deleted = await reopened.searchLexical({
            filter: { user_id: user },
            terms: analyzeQuery(`note ${ROWS - 1}`),
            limit: ROWS,
          });
          assert.ok(
            !deleted.some((hit) => hit.memory_id === ids[ROWS - 1]),
            'the memory deleted during the build is not',
          );

          const probe = randomUnitVector(DIMS, seededRandom(99));
          const { value: vectorHits, turns: vectorTurns } = await turnsDuring(
            reopened.searchVector({ filter: { user_id: user }, vector: probe, model: MODEL, limit: 3 }),
          );
          assert.ok(vectorTurns >= Math.floor(ROWS / 1_000), `the vector build yielded ${vectorTurns} times`);
          assert.equal(vectorHits.length, 3);
          assert.ok(!vectorHits.some((hit) => hit.memory_id === ids[ROWS - 1]));
        } finally {
          await reopened.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
