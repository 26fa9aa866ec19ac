import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import type { MemoryEvent } from '../../src/core/memoryEvents.ts';
import { EXPORT_FORMAT } from '../../src/core/portability/exportFormat.ts';
import { importMemories } from '../../src/core/portability/importMemories.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * What import_memories promises about sessions, owners and the file's own ids (README GDPR,
 * RELIABILITY "all or nothing"): a session already restored is skipped, another user's session of
 * the same id is never touched (the importer's copy gets its own id, reported in remapped_ids),
 * every working item of a session arrives, new items continue after the imported ones, a
 * user-layer memory belongs to the importing user, the import is announced once, and a failure
 * the undo cannot repair is reported as such instead of as the first error.
 */

const session = (id: string, nextSequence: number) => ({
  session_id: id,
  max_tokens: 8000,
  total_tokens: 0,
  eviction_policy: 'hybrid',
  next_sequence: nextSequence,
  created_at: '2026-01-01T00:00:00Z',
  last_activity: '2026-01-01T00:00:00Z',
});
const item = (sessionId: string, id: string, sequence: number, content: string) => ({
  item_id: id,
  session_id: sessionId,
  content_type: 'message',
  content,
  token_count: 1,
  sequence_num: sequence,
  pinned: false,
  relevance_score: 1,
  created_at: '2026-01-01T00:00:00Z',
  last_accessed: '2026-01-01T00:00:00Z',
  metadata: {},
});
const memory = (id: string, content: string, layer?: Record<string, unknown>) => ({
  memory_id: id,
  content,
  memory_category: 'semantic',
  memory_subtype: 'project',
  created_at: '2026-01-01T00:00:00Z',
  ...layer,
});
const file = (sessionId: string, nextSequence = 4) => ({
  format: EXPORT_FORMAT,
  format_version: 1,
  memories: [memory(`mem_${sessionId}`, `The ${sessionId} service listens on port 8080`)],
  sessions: [session(sessionId, nextSequence)],
  working_items: [
    item(sessionId, 'wmi_1', 1, 'We use pnpm in this repo'),
    item(sessionId, 'wmi_2', 2, 'The linter is eslint with the flat config'),
    item(sessionId, 'wmi_3', 3, 'Releases are tagged from main'),
  ],
});

describe('import_memories: sessions, owners and ids', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(async () => test.cleanup());

  const contents = async (sessionId: string) =>
    (await test.store.listWorkingItems(sessionId)).map((entry) => entry.content).sort();

  it('restores every working item of a session, and skips the session when imported again', async () => {
    const first = await importMemories(test.deps, 'alice', file('sess_again'));
    assert.deepEqual([first.sessions_imported, first.sessions_skipped, first.working_items_imported], [1, 0, 3]);
    assert.equal(
      first.remapped_ids.sess_again,
      undefined,
      'a session id nobody holds is kept, not reported as remapped',
    );
    assert.deepEqual(await contents('sess_again'), [
      'Releases are tagged from main',
      'The linter is eslint with the flat config',
      'We use pnpm in this repo',
    ]);
    const second = await importMemories(test.deps, 'alice', file('sess_again'));
    assert.deepEqual([second.sessions_imported, second.sessions_skipped, second.working_items_imported], [0, 1, 0]);
    assert.equal((await test.store.listWorkingItems('sess_again')).length, 3, 'no item twice');
  });

  it('a file that lists one session twice restores it once, as first listed, with each item once', async () => {
    const listed = file('sess_listed_twice');
    const result = await importMemories(test.deps, 'gina', {
      ...listed,
      // A hand-merged file: the second listing of the same session has another budget and config.
      sessions: [
        { ...session('sess_listed_twice', 4), config: { origin: 'first listing' } },
        { ...session('sess_listed_twice', 4), max_tokens: 2000, config: { origin: 'second listing' } },
      ],
    });
    assert.deepEqual(
      [result.sessions_imported, result.sessions_skipped, result.working_items_imported],
      [1, 1, 3],
      JSON.stringify(result),
    );
    const restored = await test.store.getSession('sess_listed_twice');
    assert.equal(restored?.user_id, 'gina');
    assert.equal(restored?.max_tokens, 8000, 'the first listing is restored, not overwritten by the second');
    assert.deepEqual(restored?.config, { origin: 'first listing' });
    const items = await test.store.listWorkingItems('sess_listed_twice');
    assert.equal(items.length, 3);
    assert.equal(
      restored?.total_tokens,
      items.reduce((total, entry) => total + entry.token_count, 0),
      'the budget counts each item once',
    );
  });

  it('a file that lists one memory twice imports it once, as first listed', async () => {
    const result = await importMemories(test.deps, 'gina', {
      format: EXPORT_FORMAT,
      format_version: 1,
      memories: [
        memory('mem_listed_twice', 'The billing service runs on Postgres 16'),
        memory('mem_listed_twice', 'The billing service runs on MySQL 8'),
      ],
    });
    assert.deepEqual([result.memories_imported, result.memories_skipped], [1, 1], JSON.stringify(result));
    const id = result.remapped_ids.mem_listed_twice ?? 'mem_listed_twice';
    const stored = await test.store.getMemories('gina', [id]);
    assert.deepEqual(
      stored.map((entry) => entry.content),
      ['The billing service runs on Postgres 16'],
    );
  });

  it("another user's import of the same session id gets its own session and leaves the first owner's alone", async () => {
    await importMemories(test.deps, 'alice', file('sess_shared'));
    const before = await test.store.listWorkingItems('sess_shared');
    const result = await importMemories(test.deps, 'bob', {
      ...file('sess_shared'),
      working_items: [item('sess_shared', 'wmi_1', 1, "Bob's note: staging is down")],
    });
    const bobs = result.remapped_ids.sess_shared;
    assert.ok(bobs && bobs !== 'sess_shared', `the session id is remapped for bob: ${JSON.stringify(result)}`);
    assert.deepEqual([result.sessions_imported, result.sessions_skipped], [1, 0]);
    assert.equal((await test.store.getSession('sess_shared'))?.user_id, 'alice');
    assert.deepEqual(await test.store.listWorkingItems('sess_shared'), before);
    assert.equal((await test.store.getSession(bobs))?.user_id, 'bob');
    assert.deepEqual(await contents(bobs), ["Bob's note: staging is down"]);
    // Bob's second import finds his own copy and skips it.
    const again = await importMemories(test.deps, 'bob', file('sess_shared'));
    assert.deepEqual([again.sessions_imported, again.sessions_skipped], [0, 1]);
  });

  it('the next item of an imported session comes after its items, whatever next_sequence the file says', async () => {
    await importMemories(test.deps, 'carol', file('sess_sequence', 1));
    const restored = await test.store.getSession('sess_sequence');
    assert.equal(restored?.next_sequence, 4, 'one past the last item (3), not the file’s 1');
    await importMemories(test.deps, 'carol', file('sess_ahead', 9));
    assert.equal((await test.store.getSession('sess_ahead'))?.next_sequence, 9, 'the file’s, when it is further on');
  });

  it('a user-layer memory belongs to the importing user; an agent memory keeps its agent', async () => {
    const result = await importMemories(test.deps, 'dave', {
      format: EXPORT_FORMAT,
      format_version: 1,
      memories: [
        memory('mem_user', 'Dave prefers tabs', { layer: 'user', scope_id: 'someone-else' }),
        memory('mem_agent', 'The reviewer asks for tests first', { layer: 'agent', scope_id: 'reviewer' }),
      ],
    });
    const stored = await test.store.getMemories('dave', [
      result.remapped_ids.mem_user ?? 'mem_user',
      result.remapped_ids.mem_agent ?? 'mem_agent',
    ]);
    const scopeOf = (content: string) => stored.find((entry) => entry.content === content)?.scope_id;
    assert.equal(scopeOf('Dave prefers tabs'), 'dave');
    assert.equal(scopeOf('The reviewer asks for tests first'), 'reviewer');
  });

  it('announces the imported memories once, by id, and nothing when everything was already there', async () => {
    const events: MemoryEvent[] = [];
    const listening = test.deps.events.on((event) => events.push(event));
    try {
      const result = await importMemories(test.deps, 'erin', file('sess_events'));
      const created = events.filter((event) => event.type === 'memory' && event.change === 'created');
      assert.equal(created.length, 1);
      assert.deepEqual(created[0], {
        type: 'memory',
        user_id: 'erin',
        memory_ids: [result.remapped_ids.mem_sess_events ?? 'mem_sess_events'],
        change: 'created',
      });
      events.length = 0;
      await importMemories(test.deps, 'erin', file('sess_events'));
      assert.deepEqual(
        events.filter((event) => event.type === 'memory'),
        [],
      );
    } finally {
      listening.dispose();
    }
  });

  it('refuses an empty user id, naming user_id', async () => {
    await assert.rejects(
      importMemories(test.deps, '', file('sess_nobody')),
      (error: unknown) =>
        MemoryError.is(error, 'MISSING_IDENTIFIER') && (error as MemoryError).details?.field === 'user_id',
    );
  });

  it('a failure the undo cannot repair is reported as a provider error that says what may remain', async () => {
    const broken: MemoryStore = Object.create(test.store, {
      commitWorking: {
        value: async () => {
          throw new MemoryError('STORAGE_FULL', 'disk full');
        },
      },
      hardDeleteMemory: {
        value: async () => {
          throw new MemoryError('PROVIDER_ERROR', 'backend down');
        },
      },
    });
    await assert.rejects(importMemories({ ...test.deps, store: broken }, 'frank', file('sess_broken')), (error) => {
      assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'), String(error));
      assert.match(error.message, /could not be fully undone; 1 memories may remain\. First failure: disk full/);
      assert.equal(error.operation, 'import_memories');
      return true;
    });
  });
});
