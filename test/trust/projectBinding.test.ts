import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

const BOB = 'github.com/bob/private';
const ALICE = 'github.com/alice/app';
const decision = { memory_category: 'episodic', memory_subtype: 'decision' };

describe('a bound server acts only in its own project (issue 13.6)', () => {
  let test: TestCore;
  let aliceCore: MemoryCore;
  let open: Client;
  let alice: Client;
  let aliceReading: Client;
  const closers: Array<() => Promise<void>> = [];
  let bobMemory: string;

  before(async () => {
    test = await createTestCore();
    // `fml serve --user alice --project github.com/alice/app` on the same data directory.
    aliceCore = new MemoryCore({ store: new SqliteMemoryStore({ dataDir: test.dataDir }), defaultProjectId: ALICE });
    await aliceCore.open();
    for (const [context, set] of [
      [{ core: test.core }, (client: Client) => (open = client)],
      [{ core: aliceCore, defaultUserId: 'alice' }, (client: Client) => (alice = client)],
      [
        { core: aliceCore, defaultUserId: 'alice', readableProjectIds: [BOB] },
        (client: Client) => (aliceReading = client),
      ],
    ] as const) {
      const connected = await connectClient(context);
      set(connected.client);
      closers.push(connected.close);
    }
    bobMemory = (
      await callOk<{ memory_id: string }>(open, 'store_memory', {
        user_id: 'bob',
        layer: 'project',
        project_id: BOB,
        content: 'We decided the private API key rotation happens every Monday',
        ...decision,
      })
    ).memory_id;
  });
  after(async () => {
    for (const close of closers) await close();
    await aliceCore.close();
    await test.cleanup();
  });

  async function bobProject(): Promise<string[]> {
    return (await listAllMemories(test.store, { user_id: `project:${BOB}` })).items
      .filter((memory) => !memory.deleted_at)
      .map((memory) => memory.memory_id);
  }

  it("refuses to store into, edit or delete from another project's layer", async () => {
    const stored = await callError(alice, 'store_memory', {
      layer: 'project',
      project_id: BOB,
      content: 'We decided to leak everything',
      ...decision,
    });
    assert.equal(stored.code, 'UNAUTHORIZED');
    const forgotten = await callError(alice, 'forget_memory', {
      memory_id: bobMemory,
      layer: 'project',
      project_id: BOB,
      hard_delete: true,
    });
    assert.equal(forgotten.code, 'UNAUTHORIZED');
    assert.equal(
      (
        await callError(alice, 'update_memory', {
          memory_id: bobMemory,
          layer: 'project',
          project_id: BOB,
          content: 'changed',
        })
      ).code,
      'UNAUTHORIZED',
    );
    assert.equal(
      (
        await callError(alice, 'set_fact', {
          layer: 'project',
          project_id: BOB,
          category: 'constraint',
          key: 'deploy',
          value: 'never',
        })
      ).code,
      'UNAUTHORIZED',
    );
    assert.equal(
      (
        await callError(aliceReading, 'store_memory', {
          layer: 'project',
          project_id: BOB,
          content: 'We decided to leak everything',
          ...decision,
        })
      ).code,
      'UNAUTHORIZED',
      'readable is not writable',
    );
    assert.equal(
      (
        await callError(aliceReading, 'forget_memory', {
          memory_id: bobMemory,
          layer: 'project',
          project_id: BOB,
          hard_delete: true,
        })
      ).code,
      'UNAUTHORIZED',
    );
    assert.deepEqual(await bobProject(), [bobMemory], "bob's project layer is untouched");
    const [kept] = await test.core.getMemories(`project:${BOB}`, [bobMemory]);
    assert.match(kept?.content ?? '', /every Monday/);
  });

  it('reads another project only where configured', async () => {
    assert.equal(
      (await callError(alice, 'recall_memories', { query: 'API key rotation', project_id: BOB })).code,
      'UNAUTHORIZED',
    );
    const read = await callOk<{ memories: Array<{ memory_id: string }> }>(aliceReading, 'recall_memories', {
      query: 'API key rotation',
      project_id: BOB,
    });
    assert.ok(read.memories.some((memory) => memory.memory_id === bobMemory));
  });

  it('still works in its own project', async () => {
    const own = await callOk<{ memory_id: string }>(alice, 'store_memory', {
      layer: 'project',
      content: 'We decided to ship the app on Fridays',
      ...decision,
    });
    const [memory] = await test.core.getMemories(`project:${ALICE}`, [own.memory_id]);
    assert.equal(memory?.scope_id, ALICE);
    await callOk(alice, 'forget_memory', {
      memory_id: own.memory_id,
      layer: 'project',
      project_id: ALICE,
      hard_delete: true,
    });
    assert.equal((await test.core.getMemories(`project:${ALICE}`, [own.memory_id])).length, 0);
  });
});
