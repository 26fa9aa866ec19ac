import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemorySearch } from '../../src/core/editor/memorySearch.ts';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

describe('only memories someone receives or opens count as accessed (issue 13.14)', () => {
  let test: TestCore;
  const ids: string[] = [];
  before(async () => {
    test = await createTestCore();
    for (const content of [
      'Deploys go through ArgoCD on the staging cluster first',
      'Deploy previews are built by Netlify',
      'The deploy key lives in 1Password',
      'Unit tests run with Vitest',
      'Lint with eslint before committing',
    ]) {
      ids.push(
        (
          await test.core.storeMemory({
            user_id: 'alice',
            content,
            memory_category: 'procedural',
            memory_subtype: 'workflow',
          })
        ).memory_id,
      );
    }
  });
  after(async () => {
    await test.cleanup();
  });

  async function counts(): Promise<Map<string, number>> {
    await test.core.flushAccessLog();
    return new Map(
      (await listAllMemories(test.store, { user_id: 'alice' })).items.map((memory) => [
        memory.memory_id,
        memory.access_count,
      ]),
    );
  }

  it('logs nothing while the user types a search, and one access for the result they open', async () => {
    const search = new MemorySearch(test.core, 'alice');
    let results: Awaited<ReturnType<MemorySearch['search']>> = [];
    for (const typed of ['d', 'de', 'dep', 'depl', 'deplo', 'deploy', 'deploy a', 'deploy argo'])
      results = await search.search(typed);
    assert.ok(results.length > 0);
    assert.deepEqual([...(await counts()).values()], [0, 0, 0, 0, 0], 'eight keystrokes, no access counted');
    assert.deepEqual(await test.store.listAccessLog('alice', 0, 100), []);
    await search.opened(results[0]!);
    const after = await counts();
    assert.equal(after.get(results[0]!.memory_id), 1);
    assert.equal(
      [...after.values()].reduce((total, count) => total + count, 0),
      1,
      'only the opened memory',
    );
    const [entry] = await test.store.listAccessLog('alice', 0, 100);
    assert.deepEqual(
      [entry?.memory_id, entry?.query_text, entry?.tool],
      [results[0]!.memory_id, 'deploy argo', 'search_memories'],
    );
  });

  it('still counts what an agent receives from recall', async () => {
    const before = await counts();
    const { memories } = await test.core.recall({ user_id: 'alice', query: 'Vitest unit tests', limit: 1 });
    const after = await counts();
    assert.equal(after.get(memories[0]!.memory_id), (before.get(memories[0]!.memory_id) ?? 0) + 1);
  });
});
