import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { callError, connectClient } from '../support/testCore.ts';

/**
 * docs/mcp.md, forget_memory: a batch hard delete erases each memory in its own transaction, and a
 * store failure part way is an error naming the memories erased and those not (promise
 * mcp-partial-erasure-reported). The failure is injected at each erase of the batch in turn: it was
 * found reported as a bare store error, with nothing saying that earlier memories were gone.
 */
const BATCH = 3;

/** A store whose hardDeleteMemory fails at its k-th call (once). */
function failingErase(store: MemoryStore, failAt: number): MemoryStore {
  let calls = 0;
  return new Proxy(store, {
    get: (target, name, receiver) => {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name !== 'hardDeleteMemory') return value.bind(target);
      return async (...args: unknown[]) => {
        calls += 1;
        if (calls === failAt) throw new MemoryError('STORAGE_FULL', `injected failure at erase ${calls}`);
        return value.apply(target, args);
      };
    },
  });
}

describe('a batch hard delete that fails part way says what it erased (issue 29, failure at each step)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (let failAt = 1; failAt <= BATCH; failAt++) {
    it(`the store fails at erase ${failAt} of ${BATCH}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fml-partial-erasure-'));
      dirs.push(dataDir);
      const store = new SqliteMemoryStore({ dataDir });
      const core = new MemoryCore({ store: failingErase(store, failAt) });
      await core.open();
      try {
        const user = 'eraser';
        const ids: string[] = [];
        for (const topic of ['the billing cron', 'the staging VPN', 'the release train'])
          ids.push(
            (
              await core.storeMemory({
                user_id: user,
                content: `Notes on ${topic} and who owns it`,
                memory_category: 'semantic',
                memory_subtype: 'project',
              })
            ).memory_id,
          );
        const purged: string[] = [];
        core.onEvent((event) => {
          if (event.type === 'memory' && event.change === 'purged') purged.push(...event.memory_ids);
        });

        const failure = await core.forgetMemory({ user_id: user, memory_ids: ids, hard_delete: true }).then(
          () => assert.fail('the failed erase was reported as success'),
          (error: unknown) => error,
        );
        assert.ok(MemoryError.is(failure, 'STORAGE_FULL'), String(failure));
        const erased = ids.slice(0, failAt - 1);
        const notErased = ids.slice(failAt - 1);
        assert.deepEqual(failure.details?.erased, erased);
        assert.deepEqual(failure.details?.not_erased, notErased);
        assert.match(failure.message, new RegExp(`^Erased ${failAt - 1} of ${BATCH} memories before the store failed`));
        assert.deepEqual(purged, erased, 'the memories erased before the failure are announced as purged, only they');
        const left = (await store.getMemories(user, ids)).map((memory) => memory.memory_id);
        assert.deepEqual(left, notErased, 'erased memories are gone; the others are untouched');
        assert.ok((await store.getMemories(user, notErased)).every((memory) => memory.deleted_at === null));

        // Forgetting the same ids again finishes the batch.
        const retry = await core.forgetMemory({ user_id: user, memory_ids: ids, hard_delete: true });
        assert.deepEqual(retry.forgotten, notErased);
        assert.deepEqual(retry.not_found, erased);
        assert.deepEqual(await store.getMemories(user, ids), []);
      } finally {
        await core.close();
      }
    });
  }

  it('the MCP client gets the error, its code and how many were erased', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fml-partial-erasure-'));
    dirs.push(dataDir);
    const core = new MemoryCore({ store: failingErase(new SqliteMemoryStore({ dataDir }), 2) });
    await core.open();
    const { client, close } = await connectClient({ core });
    try {
      const ids: string[] = [];
      for (const content of ['The canary deploy waits ten minutes', 'The canary deploy pages the on-call'])
        ids.push(
          (
            await core.storeMemory({
              user_id: 'default',
              content,
              memory_category: 'semantic',
              memory_subtype: 'project',
            })
          ).memory_id,
        );
      const error = await callError(client, 'forget_memory', {
        user_id: 'default',
        memory_ids: ids,
        hard_delete: true,
      });
      assert.equal(error.code, 'STORAGE_FULL');
      assert.match(error.message, /^Erased 1 of 2 memories before the store failed .*the other 1 are not erased/);
    } finally {
      await close();
      await core.close();
    }
  });
});
