import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { it } from 'node:test';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { iso, makeAccess, makeMemory, newUserId } from '../contract/fixtures.ts';

/**
 * A flush of the access log bumps each memory once for all its entries (accessLog.ts): the counts
 * and times must be those of one bump per entry, whatever the order of the entries, and an entry
 * logged before (a retried access_id) must not count.
 */
it('one batch with a memory several times, out of time order, with a retried entry, counts as one bump each', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-access-batch-'));
  const store = new SqliteMemoryStore({ dataDir });
  await store.open();
  try {
    const user = newUserId();
    const often = makeMemory(user, { access_count: 3, last_accessed: iso(2) });
    const once = makeMemory(user, { access_count: 0, last_accessed: iso(9) });
    const stranger = makeMemory(newUserId(), { access_count: 0 });
    for (const memory of [often, once, stranger]) await store.insertMemory(memory, null);
    const retried = makeAccess(often, { accessed_at: iso(4) });
    await store.recordAccess([retried]);
    await store.recordAccess([
      makeAccess(often, { accessed_at: iso(8) }),
      makeAccess(once, { accessed_at: iso(5) }),
      retried,
      makeAccess(often, { accessed_at: iso(6) }),
      makeAccess(stranger, { user_id: user, accessed_at: iso(7) }),
      makeAccess(often, { accessed_at: iso(7) }),
    ]);
    const [afterOften, afterOnce] = await store.getMemories(user, [often.memory_id, once.memory_id]);
    assert.equal(afterOften.access_count, 3 + 1 + 3);
    assert.equal(Date.parse(afterOften.last_accessed), Date.parse(iso(8)));
    // An access older than the memory's last one moves the count, not the time.
    assert.equal(afterOnce.access_count, 1);
    assert.equal(Date.parse(afterOnce.last_accessed), Date.parse(iso(9)));
    assert.equal((await store.getMemories(stranger.user_id, [stranger.memory_id]))[0].access_count, 0);
    assert.equal((await store.stats(user)).access_log_entries, 1 + 4);
    await store.close();
    // What the file holds, past the store's caches.
    const file = new DatabaseSync(join(dataDir, 'memory.db'));
    try {
      const row = file
        .prepare('SELECT access_count, last_accessed FROM long_term_memories WHERE memory_id = ?')
        .get(often.memory_id) as { access_count: number; last_accessed: string };
      assert.equal(row.access_count, 7);
      assert.equal(Date.parse(row.last_accessed), Date.parse(iso(8)));
    } finally {
      file.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
