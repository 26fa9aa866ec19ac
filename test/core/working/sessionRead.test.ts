import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryStore } from '../../../src/core/ports/memoryStore.ts';
import { createTestCore } from '../../support/testCore.ts';

type SessionRead = 'getSession' | 'listWorkingItems' | 'getSessionWithItems';

/** Counts the store's session and working-item reads until `stop`. */
function countingSessionReads(store: MemoryStore): { calls: SessionRead[]; stop: () => void } {
  const names: SessionRead[] = ['getSession', 'listWorkingItems', 'getSessionWithItems'];
  const originals = names.map((name) => [name, store[name]] as const);
  const calls: SessionRead[] = [];
  for (const [name, original] of originals) {
    (store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      calls.push(name);
      return (original as (...args: unknown[]) => unknown).apply(store, args);
    };
  }
  return {
    calls,
    stop: () => {
      for (const [name, original] of originals) (store as unknown as Record<string, unknown>)[name] = original;
    },
  };
}

/**
 * A working-memory call and get_relevant_context read the session and its items in one store
 * call (getSessionWithItems), where they used two (getSession, then listWorkingItems): each read
 * of the SQLite store checks for other processes' commits. The answers are those of the two reads.
 */
describe('the session read of working-memory calls', () => {
  it('reads the session with its items once per call, and answers from that read', async () => {
    const test = await createTestCore();
    try {
      const user = 'session-read-user';
      const { session_id } = await test.core.initSession({ user_id: user });
      await test.core.addToWorkingMemory({
        session_id,
        content: 'the heron stood by the pond',
        content_type: 'message',
      });
      const counting = countingSessionReads(test.store);
      try {
        const added = await test.core.addToWorkingMemory({
          session_id,
          content: 'the heron caught a fish',
          content_type: 'message',
        });
        assert.equal(added.total_tokens, (await test.store.getSession(session_id))?.total_tokens);
        counting.calls.length = 0;
        const got = await test.core.getWorkingMemory({ session_id });
        assert.deepEqual(
          got.items.map((item) => item.content),
          ['the heron stood by the pond', 'the heron caught a fish'],
        );
        assert.deepEqual(counting.calls, ['getSessionWithItems']);
        counting.calls.length = 0;
        const context = await test.core.getRelevantContext({
          user_id: user,
          session_id,
          query: 'heron fish',
          token_budget: 2000,
        });
        assert.deepEqual(counting.calls, ['getSessionWithItems']);
        assert.deepEqual(
          context.context_items
            .filter((item) => item.source === 'working_memory')
            .map((item) => item.item_id)
            .sort(),
          got.items.map((item) => item.item_id).sort(),
        );
        counting.calls.length = 0;
        await test.core.addToWorkingMemory({ session_id, content: 'the pond froze', content_type: 'message' });
        assert.deepEqual(counting.calls, ['getSessionWithItems']);
      } finally {
        counting.stop();
      }
    } finally {
      await test.cleanup();
    }
  });

  it("refuses another user's session as a missing one, and gives a context without working memory for it", async () => {
    const test = await createTestCore();
    try {
      const { session_id } = await test.core.initSession({ user_id: 'owner' });
      await test.core.addToWorkingMemory({ session_id, content: 'a private note', content_type: 'message' });
      await assert.rejects(test.core.getWorkingMemory({ session_id, user_id: 'stranger' }), {
        code: 'SESSION_NOT_FOUND',
      });
      await assert.rejects(
        test.core.getRelevantContext({ user_id: 'stranger', session_id, query: 'private note', token_budget: 2000 }),
        {
          code: 'SESSION_NOT_FOUND',
        },
      );
    } finally {
      await test.cleanup();
    }
  });
});
