import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

describe('sessions are bound to their user (issue 13.7)', () => {
  let test: TestCore;
  let open: Client;
  let bound: Client;
  const closers: Array<() => Promise<void>> = [];
  let session: string;
  before(async () => {
    test = await createTestCore();
    const unbound = await connectClient({ core: test.core });
    const boundToBob = await connectClient({ core: test.core, defaultUserId: 'bob' });
    open = unbound.client;
    bound = boundToBob.client;
    closers.push(unbound.close, boundToBob.close);
    session = (await callOk<{ session_id: string }>(open, 'init_session', { user_id: 'alice' })).session_id;
    await callOk(open, 'add_to_working_memory', {
      session_id: session,
      user_id: 'alice',
      content: 'alice secret plan: migrate billing to Stripe in March',
      content_type: 'message',
    });
  });
  after(async () => {
    for (const close of closers) await close();
    await test.cleanup();
  });

  async function aliceItems(): Promise<string[]> {
    return (await test.store.listWorkingItems(session)).map((item) => item.content);
  }

  it('refuses every session tool that names another user, on an unbound server', async () => {
    for (const [tool, extra] of [
      ['get_working_memory', {}],
      ['add_to_working_memory', { content: 'bob was here in alice session', content_type: 'message' }],
      ['checkpoint_working_memory', { force: true }],
      ['clear_working_memory', {}],
    ] as const) {
      const error = await callError(open, tool, { session_id: session, user_id: 'bob', ...extra });
      assert.equal(error.code, 'SESSION_NOT_FOUND', tool);
      assert.doesNotMatch(error.message, /Stripe/);
    }
    assert.deepEqual(
      await aliceItems(),
      ['alice secret plan: migrate billing to Stripe in March'],
      'nothing added, checkpointed or cleared',
    );
    assert.equal(
      (await callOk<{ items: unknown[] }>(open, 'get_working_memory', { session_id: session, user_id: 'alice' })).items
        .length,
      1,
      'the owner still reads it',
    );
  });

  it('refuses them on a server bound to another user, with or without user_id', async () => {
    for (const [tool, extra] of [
      ['get_working_memory', {}],
      ['add_to_working_memory', { content: 'bob was here in alice session', content_type: 'message' }],
      ['checkpoint_working_memory', { force: true }],
      ['clear_working_memory', {}],
    ] as const) {
      assert.equal(
        (await callError(bound, tool, { session_id: session, ...extra })).code,
        'SESSION_NOT_FOUND',
        `${tool} without user_id`,
      );
      assert.equal(
        (await callError(bound, tool, { session_id: session, user_id: 'alice', ...extra })).code,
        'UNAUTHORIZED',
        `${tool} naming alice`,
      );
    }
    assert.deepEqual(await aliceItems(), ['alice secret plan: migrate billing to Stripe in March']);
  });

  it("refuses store_memory and set_fact with another user's session_id", async () => {
    const stored = await callError(open, 'store_memory', {
      user_id: 'bob',
      session_id: session,
      content: 'We decided to use Redis for queues',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    assert.equal(stored.code, 'SESSION_NOT_FOUND');
    const inLayer = await callError(open, 'store_memory', {
      user_id: 'bob',
      session_id: session,
      layer: 'session',
      content: 'We decided to use Redis for queues',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    assert.equal(inLayer.code, 'SESSION_NOT_FOUND');
    const fact = await callError(open, 'set_fact', {
      user_id: 'bob',
      session_id: session,
      layer: 'session',
      category: 'preference',
      key: 'editor',
      value: 'vim',
    });
    assert.equal(fact.code, 'SESSION_NOT_FOUND');
    assert.equal((await listAllMemories(test.store, { user_id: 'bob' })).items.length, 0, 'bob stored nothing');
    const own = await callOk<{ memory_id: string }>(open, 'store_memory', {
      user_id: 'alice',
      session_id: session,
      content: 'We decided to use Redis for queues',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    const [memory] = await test.core.getMemories('alice', [own.memory_id]);
    assert.equal(memory?.source_session, session, 'the owner may name her own session');
  });
});
