import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SESSIONS, MAX_TOKENS_HELD, WorkingItemCache } from '../../src/stores/sqlite/workingItemCache.ts';
import { makeSession, makeWorkingItem, newUserId } from '../contract/fixtures.ts';

describe('WorkingItemCache', () => {
  it('applies a commit in the store order and leaves sessions it does not hold unheld', () => {
    const cache = new WorkingItemCache();
    const session = makeSession(newUserId());
    const [a, b, c] = [1, 2, 3].map((sequence) => makeWorkingItem(session, sequence));
    cache.remember(session.session_id, [a, c]);
    cache.apply({ session, upsert: [b, { ...c, content: 'edited' }], delete: [a.item_id] });
    assert.deepEqual(
      cache.get(session.session_id)?.map((item) => [item.sequence_num, item.content]),
      [
        [2, b.content],
        [3, 'edited'],
      ],
    );

    const other = makeSession(newUserId());
    cache.apply({ session: other, upsert: [makeWorkingItem(other, 1)], delete: [] });
    assert.equal(cache.get(other.session_id), undefined, 'a partial list would hide the rows it never read');
  });

  it("keeps its records away from the committer's objects", () => {
    const cache = new WorkingItemCache();
    const session = makeSession(newUserId());
    cache.remember(session.session_id, []);
    const item = makeWorkingItem(session, 1, { metadata: { file: 'a.ts' } });
    cache.apply({ session, upsert: [item], delete: [] });
    item.content = 'changed by the caller afterwards';
    item.metadata.file = 'b.ts';
    const [held] = cache.get(session.session_id) ?? [];
    assert.equal(held.content, makeWorkingItem(session, 1).content);
    assert.equal(held.metadata.file, 'a.ts');
    assert.ok(Object.isFrozen(held) && Object.isFrozen(held.metadata));
  });

  it(`holds at most ${MAX_SESSIONS} sessions, dropping the least recently used`, () => {
    const cache = new WorkingItemCache();
    const sessions = Array.from({ length: MAX_SESSIONS + 1 }, () => makeSession(newUserId()));
    cache.remember(sessions[0].session_id, []);
    cache.remember(sessions[1].session_id, []);
    cache.get(sessions[0].session_id);
    for (const session of sessions.slice(2)) cache.remember(session.session_id, []);
    assert.deepEqual(cache.get(sessions[0].session_id), [], 'used recently, kept');
    assert.equal(cache.get(sessions[1].session_id), undefined, 'least recently used, dropped');
    cache.clear();
    assert.equal(cache.get(sessions[0].session_id), undefined);
  });

  it(`holds at most ${MAX_TOKENS_HELD.toLocaleString('en')} tokens of items`, () => {
    const cache = new WorkingItemCache();
    const third = Math.floor(MAX_TOKENS_HELD / 3);
    const sessions = Array.from({ length: 4 }, () => makeSession(newUserId()));
    for (const session of sessions)
      cache.remember(session.session_id, [makeWorkingItem(session, 1, { token_count: third })]);
    assert.equal(cache.get(sessions[0].session_id), undefined, 'the oldest went when the fourth came');
    for (const session of sessions.slice(1)) assert.equal(cache.get(session.session_id)?.length, 1);
    // A commit that grows a session counts too.
    cache.apply({
      session: sessions[1],
      upsert: [makeWorkingItem(sessions[1], 2, { token_count: third })],
      delete: [],
    });
    assert.equal(cache.get(sessions[2].session_id), undefined, 'least recently used after the growth');
    assert.equal(cache.get(sessions[1].session_id)?.length, 2);
  });
});
