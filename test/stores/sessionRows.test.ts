import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import type { SessionRecord } from '../../src/core/domain/records.ts';
import { SESSION_COLUMNS, sessionRowOf } from '../../src/stores/sqlite/rowMapping.ts';
import { withTwoStores } from '../support/twoStores.ts';
import { iso, makeSession, makeWorkingItem, newUserId } from '../contract/fixtures.ts';

/**
 * getSession answers from the working-memory cache: the row a commit of this process wrote, or
 * the row a read found, until another process commits (then it reads the file again).
 */

const variants = (userId: string): SessionRecord[] => [
  makeSession(userId),
  makeSession(userId, {
    org_id: 'org-1',
    // An unpaired surrogate is stored as U+FFFD: the row held must say so too.
    project_id: 'proj-ü-\uD800',
    total_tokens: 7_321,
    max_tokens: 12_000,
    eviction_policy: 'lru',
    next_sequence: 42,
    created_at: iso(5),
    last_activity: iso(1),
    expires_at: iso(-3),
    config: { max_tokens: 12_000, nested: { list: [1, 'two', null], flag: true }, text: 'line\nbreak "quoted"' },
  }),
];

describe('session rows held by the SQLite store', () => {
  it('are, for a committed session, exactly the row SQLite returns for it', async () => {
    await withTwoStores(async (mine, theirs, dataDir) => {
      const db = new DatabaseSync(join(dataDir, 'memory.db'));
      try {
        for (const session of variants(newUserId())) {
          await mine.commitWorking({ session, upsert: [], delete: [] });
          const stored = db
            .prepare(`SELECT ${SESSION_COLUMNS.join(', ')} FROM session_contexts WHERE session_id = ?`)
            .get(session.session_id);
          assert.deepEqual({ ...sessionRowOf(session) }, { ...stored });
          assert.deepEqual(await mine.getSession(session.session_id), await theirs.getSession(session.session_id));
        }
      } finally {
        db.close();
      }
    });
  });

  it("follow this process's commits and deletes, and another process's commits", async () => {
    await withTwoStores(async (mine, theirs) => {
      const user = newUserId();
      const [session, unpaired] = variants(user);
      const other = { ...unpaired, project_id: 'proj-2' };
      assert.equal(await mine.getSession(session.session_id), null);
      await mine.commitWorking({ session, upsert: [makeWorkingItem(session, 1)], delete: [] });
      assert.deepEqual(await mine.getSession(session.session_id), session);

      // Each caller gets its own record: changing one does not change what the next caller reads.
      const handed = await mine.getSession(session.session_id);
      assert.ok(handed !== null);
      handed.total_tokens = 99;
      (handed.config as Record<string, unknown>).changed = true;
      assert.deepEqual(await mine.getSession(session.session_id), session);

      const grown = { ...session, total_tokens: 640, next_sequence: 2, last_activity: iso(0) };
      await mine.commitWorking({ session: grown, upsert: [makeWorkingItem(session, 2)], delete: [] });
      assert.deepEqual(await mine.getSession(session.session_id), grown);

      // Another process's commit is seen although this process holds the row.
      assert.deepEqual(await theirs.getSession(session.session_id), grown);
      const theirsGrown = { ...grown, total_tokens: 900, next_sequence: 3 };
      await theirs.commitWorking({ session: theirsGrown, upsert: [makeWorkingItem(session, 3)], delete: [] });
      assert.deepEqual(await mine.getSession(session.session_id), theirsGrown);
      await theirs.deleteSession(user, session.session_id);
      assert.equal(await mine.getSession(session.session_id), null);

      // A session another user holds is refused, and the row held stays the owner's.
      await mine.commitWorking({ session: other, upsert: [], delete: [] });
      await assert.rejects(
        mine.commitWorking({ session: { ...other, user_id: newUserId(), total_tokens: 5 }, upsert: [], delete: [] }),
        /already used by another user/,
      );
      assert.deepEqual(await mine.getSession(other.session_id), other);

      await mine.deleteSession(user, other.session_id);
      assert.equal(await mine.getSession(other.session_id), null);
      await mine.commitWorking({ session: other, upsert: [], delete: [] });
      await mine.deleteUser(user);
      assert.equal(await mine.getSession(other.session_id), null);
    });
  });
});
