import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MemoryRecord } from '../../src/core/domain/records.ts';
import type { MemoryFilter } from '../../src/core/ports/memoryStore.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory, newUserId, seededRandom } from '../contract/fixtures.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';

const HOUR = 3_600_000;

/**
 * The one-query adjacency (window functions) must give exactly the walk the embedded store does,
 * on corpora full of what makes the walk stop or skip: deleted and superseded rows, rows the
 * filter rejects, session changes, time gaps, deleted and unknown anchors.
 */
test("adjacentMemories in one query equals the embedded store's walk on random corpora", async () => {
  const server = await startFireboltTestServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-adjacent-'));
  const firebolt = new FireboltStore({ kind: 'core', url: server.url, database: 'adjacent_tests' });
  const sqlite = new SqliteMemoryStore({ dataDir });
  try {
    await firebolt.open();
    await sqlite.open();
    const random = seededRandom(11);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const users = [newUserId(), newUserId()];
    const memories: MemoryRecord[] = [];
    let clock = Date.parse('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 80; i++) {
      clock += random() < 0.15 ? 3 * HOUR : Math.floor(random() * 20 * 60_000);
      const at = new Date(clock).toISOString();
      const memory = makeMemory(pick(users), {
        content: `turn ${i}`,
        source_session: pick([null, 'sess_a', 'sess_a', 'sess_b']),
        memory_category: pick(['semantic', 'semantic', 'episodic'] as const),
        memory_subtype: 'project',
        confidence: pick([1, 1, 0.5]),
        ...(random() < 0.5 ? { event_time: at, created_at: at } : { created_at: at }),
        deleted_at: random() < 0.15 ? at : null,
        superseded_by: random() < 0.1 ? 'mem_newer' : null,
      });
      memories.push(memory);
      await firebolt.insertMemory(memory, null);
      await sqlite.insertMemory(memory, null);
    }
    const filters = (user: string): MemoryFilter[] => [
      { user_id: user },
      { user_id: user, categories: ['semantic'] },
      { user_id: user, min_confidence: 0.8, state: 'live' },
      { user_id: user, include_superseded: true, categories: ['episodic'] },
    ];
    for (const user of users) {
      const own = memories.filter((memory) => memory.user_id === user).map((memory) => memory.memory_id);
      const ids = [...own, memories.find((memory) => memory.user_id !== user)!.memory_id, 'mem_missing'];
      for (const filter of filters(user)) {
        for (const [radius, gap] of [
          [1, HOUR],
          [2, HOUR],
          [3, Number.POSITIVE_INFINITY],
          [2, 5 * 60_000],
        ] as const) {
          const expected = await sqlite.adjacentMemories(filter, ids, radius, gap);
          const actual = await firebolt.adjacentMemories(filter, ids, radius, gap);
          assert.deepEqual(actual, expected, `filter ${JSON.stringify(filter)}, radius ${radius}, gap ${gap}`);
        }
      }
    }
  } finally {
    await firebolt.close();
    await sqlite.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('adjacentMemories sends one query for a hundred ids', async () => {
  const server = await startFireboltTestServer();
  const store = new FireboltStore({ kind: 'core', url: server.url, database: 'adjacent_round_trips' });
  try {
    await store.open();
    const user = newUserId();
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const memory = makeMemory(user, { content: `turn ${i}` });
      ids.push(memory.memory_id);
      await store.insertMemory(memory, null);
    }
    const before = server.requests.length;
    const windows = await store.adjacentMemories({ user_id: user }, ids, 2, HOUR);
    assert.equal(server.requests.length - before, 1);
    assert.deepEqual(windows.get(ids[50]), { before: [ids[49], ids[48]], after: [ids[51], ids[52]] });
    assert.deepEqual(windows.get(ids[0]), { before: [], after: [ids[1], ids[2]] });
  } finally {
    await store.close();
    await server.close();
  }
});
