import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { isWorthKeeping } from '../../src/core/longterm/classifyContent.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

const SAID = [
  'User: I always want type hints in Python code',
  'User: remember that staging deploys need the VPN',
  'User: we decided to run mypy in strict mode in this repo',
];

describe('clear_working_memory keeps what was said (issue 13.1)', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('saves every statement of a small session and reports true counts', async () => {
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'alice' });
    for (const content of SAID)
      await callOk(client, 'add_to_working_memory', { session_id, content, content_type: 'message' });
    await callOk(client, 'add_to_working_memory', { session_id, content: 'ok', content_type: 'message' });
    const cleared = await callOk<{ memories_preserved: number; items_removed: number }>(
      client,
      'clear_working_memory',
      { session_id },
    );
    assert.equal(cleared.items_removed, 4, 'all four items left working memory');
    const { items: stored } = await listAllMemories(test.store, { user_id: 'alice' });
    const contents = stored.map((memory) => memory.content).sort();
    assert.deepEqual(contents, [...SAID].sort(), 'each statement is a long-term memory; the acknowledgement is not');
    assert.equal(cleared.memories_preserved, 3);
    for (const [query, expected] of [
      ['type hints Python', SAID[0]],
      ['staging VPN', SAID[1]],
      ['mypy strict', SAID[2]],
    ] as const) {
      const recalled = await callOk<{ memories: Array<{ content: string }> }>(client, 'recall_memories', {
        user_id: 'alice',
        query,
      });
      assert.ok(
        recalled.memories.some((memory) => memory.content === expected),
        `"${query}" recalls ${expected}`,
      );
    }
    assert.equal((await callOk<{ items: unknown[] }>(client, 'get_working_memory', { session_id })).items.length, 0);
  });

  it('removes without saving when checkpoint_first is false, and counts the removal', async () => {
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'bob' });
    await callOk(client, 'add_to_working_memory', { session_id, content: SAID[2], content_type: 'message' });
    const cleared = await callOk<{ memories_preserved: number; items_removed: number }>(
      client,
      'clear_working_memory',
      { session_id, checkpoint_first: false },
    );
    assert.deepEqual(cleared, { success: true, memories_preserved: 0, items_removed: 1 });
    assert.equal(
      (await callOk<{ memories: unknown[] }>(client, 'recall_memories', { user_id: 'bob', query: 'mypy strict' }))
        .memories.length,
      0,
    );
  });

  it('always keeps an explicit "remember", even in the periodic checkpoint', () => {
    assert.equal(isWorthKeeping('remember: VPN for staging', 6), true);
    assert.equal(isWorthKeeping('Please remember that prod is eu-west-1', 9), true);
    assert.equal(isWorthKeeping('User: ok', 3), false);
  });
});
