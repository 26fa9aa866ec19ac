import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  forgetSeveral,
  type ForgetSeveralCore,
  type ForgetSeveralUi,
} from '../../../src/vscode/commands/forgetSeveral.ts';
import { COMMANDS } from '../../../src/vscode/commands/commandIds.ts';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import type { MemoryStore } from '../../../src/core/ports/memoryStore.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

const USER = 'palette-user';
const IDENTITY = { userId: USER, scopeProjectId: undefined };

/** The editor as the flow sees it: picks what the test says, records what it was shown. */
class ScriptedUi implements ForgetSeveralUi {
  offered: Array<{ message: string; undo: () => Promise<void> }> = [];
  shown: MemoryRecord[] = [];
  preselected: string[] = [];
  empty = 0;
  readonly logged: string[] = [];
  readonly log = {
    info: (message: string) => void this.logged.push(message),
    error: (message: string, error: unknown) => void this.logged.push(`${message}: ${String(error)}`),
  };
  private readonly choose: (memories: readonly MemoryRecord[]) => readonly string[] | undefined;
  constructor(choose: (memories: readonly MemoryRecord[]) => readonly string[] | undefined) {
    this.choose = choose;
  }
  async pickMany(
    memories: readonly MemoryRecord[],
    preselected: ReadonlySet<string>,
  ): Promise<readonly string[] | undefined> {
    this.shown = [...memories];
    this.preselected = [...preselected];
    return this.choose(memories);
  }
  nothingToForget(): void {
    this.empty++;
  }
  offerUndo(message: string, undo: () => Promise<void>): void {
    this.offered.push({ message, undo });
  }
}

/** Counts the calls that reach the core and the store, to show one call and one write per batch. */
function counted<T extends object>(target: T, counts: Map<string, number>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counts.set(String(property), (counts.get(String(property)) ?? 0) + 1);
        return (value as (...call: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

describe('Forget Memories… (palette): several memories in one call, with Undo', () => {
  let test: TestCore;
  const ids: string[] = [];
  before(async () => {
    test = await createTestCore();
    for (const topic of ['otter', 'badger', 'heron', 'lynx', 'marten']) {
      const stored = await test.core.storeMemory({
        user_id: USER,
        content: `The ${topic} service deploys from the ${topic}-main branch.`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      ids.push(stored.memory_id);
    }
  });
  after(() => test.cleanup());

  const live = async (memoryIds: readonly string[]): Promise<string[]> =>
    (await test.store.getMemories(USER, memoryIds)).filter((m) => m.deleted_at === null).map((m) => m.memory_id);

  it('is a palette command', () => {
    assert.equal(COMMANDS['memory.forgetSeveral'].title, 'Forget Memories…');
    assert.notEqual(COMMANDS['memory.forgetSeveral'].hidden, true);
  });

  it('forgets the picked memories with one core call and one store write, and Undo restores them with one each', async () => {
    const coreCalls = new Map<string, number>();
    const storeCalls = new Map<string, number>();
    const realForget = test.store.forgetMemories.bind(test.store);
    const realRestore = test.store.restoreMemories.bind(test.store);
    const store = test.store as MemoryStore;
    store.forgetMemories = (...args) => {
      storeCalls.set('forgetMemories', (storeCalls.get('forgetMemories') ?? 0) + 1);
      return realForget(...args);
    };
    store.restoreMemories = (...args) => {
      storeCalls.set('restoreMemories', (storeCalls.get('restoreMemories') ?? 0) + 1);
      return realRestore(...args);
    };
    try {
      const chosen = ids.slice(0, 3);
      const ui = new ScriptedUi(() => chosen);
      const core = counted<ForgetSeveralCore>(test.core, coreCalls);
      const result = await forgetSeveral(core, IDENTITY, ui);
      assert.deepEqual([...(result?.forgotten ?? [])].sort(), [...chosen].sort());
      assert.equal(ui.shown.length, 5, 'every memory of the scope is offered');
      assert.deepEqual(await live(ids), ids.slice(3), 'the three are forgotten, the other two stay');
      assert.equal(coreCalls.get('forgetMemory'), 1, 'one forget call for the batch');
      assert.equal(storeCalls.get('forgetMemories'), 1, 'one store write for the batch');
      assert.equal(ui.offered.length, 1);
      assert.equal(ui.offered[0].message, 'Forgot 3 memories.');

      await ui.offered[0].undo();
      assert.deepEqual(await live(ids), ids, 'Undo brings all three back');
      assert.equal(coreCalls.get('restoreMemories'), 1, 'one restore call');
      assert.equal(storeCalls.get('restoreMemories'), 1, 'one store write for the undo');
    } finally {
      store.forgetMemories = realForget;
      store.restoreMemories = realRestore;
    }
  });

  it('a memory erased between the pick and the forget is reported as gone; the others are forgotten', async () => {
    const ui = new ScriptedUi(() => [ids[3], ids[4]]);
    const core: ForgetSeveralCore = {
      listMemories: (query) => test.core.listMemories(query),
      restoreMemories: (user, memoryIds) => test.core.restoreMemories(user, memoryIds),
      forgetMemory: async (input) => {
        await test.core.forgetMemory({ user_id: USER, memory_id: ids[4], hard_delete: true });
        return test.core.forgetMemory(input);
      },
    };
    const result = await forgetSeveral(core, IDENTITY, ui);
    assert.deepEqual(result?.forgotten, [ids[3]]);
    assert.deepEqual(result?.not_found, [ids[4]]);
    assert.equal(ui.offered[0].message, 'Forgot 1 memory. 1 was already gone.');
    await ui.offered[0].undo();
    assert.deepEqual(await live([ids[3]]), [ids[3]]);
  });

  it('ids passed to the command are ticked when the pick opens; dismissing the pick forgets nothing', async () => {
    const ui = new ScriptedUi(() => undefined);
    const result = await forgetSeveral(test.core, IDENTITY, ui, [ids[0], ids[1]]);
    assert.equal(result, undefined);
    assert.deepEqual(ui.preselected, [ids[0], ids[1]]);
    assert.equal(ui.offered.length, 0);
    assert.deepEqual(await live(ids.slice(0, 4)), ids.slice(0, 4));
    const none = new ScriptedUi(() => []);
    assert.equal(await forgetSeveral(test.core, IDENTITY, none), undefined, 'an empty selection forgets nothing');
    assert.equal(none.offered.length, 0);
  });

  it('with no memory in scope, says so and shows no pick', async () => {
    const ui = new ScriptedUi(() => {
      throw new Error('no pick should open');
    });
    assert.equal(await forgetSeveral(test.core, { userId: 'nobody-here', scopeProjectId: undefined }, ui), undefined);
    assert.equal(ui.empty, 1);
  });
});
