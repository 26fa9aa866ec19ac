import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * SECURITY.md, "Using another user's working-memory session" and the trust boundary: on an unbound
 * server a session id is a capability, but a call naming a user_id must own the session it names.
 * Every tool of the catalog that takes a session_id is called as bob with alice's session, with no
 * layer (so the session is only the call's source or scope, the case a layer check never sees):
 * a write is refused with SESSION_NOT_FOUND and leaves nothing of bob's tied to alice's session
 * (delete_fact, which only scopes by it, finds nothing of bob's to delete and leaves alice's fact), a
 * read answers nothing of alice's. A tool that starts taking a session_id fails the first test
 * until it has a case here.
 */
const ALICE_WORDS = 'zebracorn ledger reconciliation';
const BOB_MEMORY_TEXT = 'Bob keeps his zebracorn ledger notes in the wiki.';

/** `refused`: the write is an error naming the session; `untouched`: any error, alice's data unchanged. */
type Case = {
  kind: 'write' | 'untouched' | 'read';
  args: (ids: { session: string; bobMemory: string }) => Record<string, unknown>;
};
const CASES: Record<string, Case> = {
  init_session: { kind: 'write', args: ({ session }) => ({ session_id: session }) },
  add_to_working_memory: {
    kind: 'write',
    args: ({ session }) => ({ session_id: session, content: 'Bob writes into the session', content_type: 'message' }),
  },
  checkpoint_working_memory: { kind: 'write', args: ({ session }) => ({ session_id: session, force: true }) },
  clear_working_memory: { kind: 'write', args: ({ session }) => ({ session_id: session }) },
  store_memory: {
    kind: 'write',
    args: ({ session }) => ({
      session_id: session,
      content: 'Bob attaches a memory to the session',
      memory_category: 'semantic',
      memory_subtype: 'project',
    }),
  },
  set_fact: {
    kind: 'write',
    args: ({ session }) => ({ session_id: session, category: 'preference', key: 'editor', value: 'emacs' }),
  },
  delete_fact: {
    kind: 'untouched',
    args: ({ session }) => ({ session_id: session, category: 'preference', key: 'editor' }),
  },
  promote_memory: {
    kind: 'write',
    args: ({ session, bobMemory }) => ({
      session_id: session,
      memory_id: bobMemory,
      to_layer: 'project',
      project_id: 'github.com/bob/app',
    }),
  },
  get_working_memory: { kind: 'read', args: ({ session }) => ({ session_id: session }) },
  recall_memories: {
    kind: 'read',
    args: ({ session }) => ({ session_id: session, query: ALICE_WORDS, min_similarity: 0 }),
  },
  get_relevant_context: {
    kind: 'read',
    args: ({ session }) => ({ session_id: session, query: ALICE_WORDS, token_budget: 4_000 }),
  },
  get_facts: { kind: 'read', args: ({ session }) => ({ session_id: session }) },
};

describe('every tool that takes a session_id refuses another user’s session', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  let session: string;
  let bobMemory: string;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core, adminTools: true }));
    session = (await test.core.initSession({ user_id: 'alice' })).session_id;
    await test.core.addToWorkingMemory({
      session_id: session,
      user_id: 'alice',
      content: `Alice is working on the ${ALICE_WORDS} today.`,
      content_type: 'message',
    });
    await test.core.setFact({
      user_id: 'alice',
      session_id: session,
      category: 'preference',
      key: 'editor',
      value: 'vim',
    });
    bobMemory = (
      await test.core.storeMemory({
        user_id: 'bob',
        content: BOB_MEMORY_TEXT,
        memory_category: 'semantic',
        memory_subtype: 'project',
      })
    ).memory_id;
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('has a case for every tool that takes a session_id', () => {
    const taking = TOOLS.filter((tool) => 'session_id' in tool.input).map((tool) => tool.name);
    assert.deepEqual(
      taking.filter((name) => !(name in CASES)),
      [],
    );
  });

  for (const [name, { kind, args }] of Object.entries(CASES)) {
    it(`${name} called as bob with alice’s session ${kind === 'read' ? 'answers nothing of alice’s' : kind === 'write' ? 'is SESSION_NOT_FOUND and ties nothing to it' : 'changes nothing of alice’s'}`, async () => {
      const result = await client.callTool({ name, arguments: { user_id: 'bob', ...args({ session, bobMemory }) } });
      const text = JSON.stringify(result);
      assert.ok(!text.includes('zebracorn ledger reconciliation'), `${name} showed alice's working memory: ${text}`);
      assert.ok(!/"vim"|\bvim\b/.test(text), `${name} showed alice's session fact: ${text}`);
      if (kind !== 'read') assert.equal(result.isError, true, `${name} accepted alice's session: ${text}`);
      if (kind === 'write') assert.match((result.content as Array<{ text: string }>)[0]!.text, /^SESSION_NOT_FOUND/);
      const aliceFacts = await test.core.getFacts({ user_id: 'alice', category: 'preference', key: 'editor' });
      assert.equal(JSON.stringify(aliceFacts).includes('vim'), true, 'alice’s fact is still there');
      const bobs = (await listAllMemories(test.store, { user_id: 'bob' })).items;
      assert.deepEqual(
        bobs.filter((memory) => memory.source_session === session || memory.scope_id === session).map((m) => m.content),
        [],
        'nothing of bob’s is tied to alice’s session',
      );
      const aliceSession = await test.store.getSession(session);
      assert.equal(aliceSession?.user_id, 'alice', 'the session is still alice’s');
      assert.equal((await test.store.listWorkingItems(session)).length, 1, 'alice’s working memory is untouched');
    });
  }
});
