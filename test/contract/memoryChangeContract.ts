import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import type { ChangeRequest } from '../../src/core/domain/memoryChange.ts';
import type { MemoryRecord, StoredEmbedding } from '../../src/core/domain/records.ts';
import { duplicateCandidateOf, type DuplicateGuard } from '../../src/core/ports/duplicateGuard.ts';
import { duplicateProbeOf, duplicateSimilarity } from '../../src/core/longterm/duplicateProbe.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { embedding, iso, makeAccess, makeMemory, newUserId } from './fixtures.ts';
import type { StoreUnderTest } from './memoryStoreContract.ts';

/** A change request with the defaults of a user's edit. */
function request(
  memory: MemoryRecord,
  change: ChangeRequest['change'],
  extra: Partial<ChangeRequest> = {},
): ChangeRequest {
  return {
    user_id: memory.user_id,
    memory_id: memory.memory_id,
    change,
    at: iso(5),
    if_forgotten: 'reject',
    ...extra,
  };
}

/**
 * What every backend does with changes said as intents: applied to the row as it is at the
 * write, so concurrent ones compose; versions refuse stale edits; forgetting wins over every
 * change but restore; an erased id stays erased. `concurrency` is how many changes race at once.
 */
export function runMemoryChangeContract(
  name: string,
  makeStore: () => Promise<StoreUnderTest>,
  concurrency = 20,
): void {
  describe(`MemoryStore changes: ${name}`, () => {
    let subject: StoreUnderTest;
    const store = (): MemoryStore => subject.store;
    before(async () => {
      subject = await makeStore();
    });
    after(() => subject.cleanup());

    async function stored(memory: MemoryRecord): Promise<MemoryRecord> {
      const [row] = await store().getMemories(memory.user_id, [memory.memory_id]);
      assert.ok(row, `memory ${memory.memory_id} is stored`);
      return row;
    }

    async function inserted(overrides: Partial<MemoryRecord> = {}): Promise<MemoryRecord> {
      const memory = makeMemory(newUserId(), overrides);
      await store().insertMemory(memory, null);
      return memory;
    }

    it(`${concurrency} concurrent metadata merges of one memory keep every key, and each raises the version`, async () => {
      const memory = await inserted({ metadata: { kept: true } });
      const keys = Array.from({ length: concurrency }, (_, index) => `key_${index}`);
      await Promise.all(keys.map((key) => store().changeMemory(request(memory, { merge_metadata: { [key]: key } }))));
      const row = await stored(memory);
      for (const key of keys) assert.equal(row.metadata[key], key, `metadata key ${key} is kept`);
      assert.equal(row.metadata.kept, true);
      assert.equal(row.version, 1 + concurrency);
    });

    it('concurrent tag and entity additions all stay, with the fields no change named', async () => {
      const memory = await inserted({ tags: ['base'], importance: 0.3 });
      await Promise.all([
        ...['a', 'b', 'c', 'd'].map((tag) => store().changeMemory(request(memory, { add_tags: [tag] }))),
        ...['X', 'Y'].map((entity) => store().changeMemory(request(memory, { add_entities: [entity] }))),
        store().changeMemory(request(memory, { set: { pinned: true } })),
      ]);
      const row = await stored(memory);
      assert.deepEqual([...row.tags].sort(), ['a', 'b', 'base', 'c', 'd']);
      assert.deepEqual([...row.entities].filter((e) => e === 'X' || e === 'Y').sort(), ['X', 'Y']);
      assert.equal(row.pinned, true);
      assert.equal(row.importance, 0.3);
    });

    it('set, remove_metadata, add_related and cap_confidence apply as said; bookkeeping leaves updated_at', async () => {
      const memory = await inserted({ metadata: { drop: 1, keep: 2 }, confidence: 0.9 });
      const outcome = await store().changeMemory(
        request(memory, { remove_metadata: ['drop'], add_related: ['mem_other'], cap_confidence: 0.5 }),
      );
      assert.equal(outcome.status, 'applied');
      let row = await stored(memory);
      assert.deepEqual(row.metadata, { keep: 2 });
      assert.deepEqual(row.related_memories, ['mem_other']);
      assert.equal(row.confidence, 0.5);
      assert.equal(row.updated_at, iso(5));
      await store().changeMemory(request(memory, { set: { decay_factor: 0.25 } }, { at: null }));
      row = await stored(memory);
      assert.equal(row.decay_factor, 0.25);
      assert.equal(row.updated_at, iso(5), 'decay is bookkeeping: updated_at stays');
      assert.equal(row.version, 3);
    });

    it('a change based on an older version is a CONFLICT with the current version, and the newer content stays', async () => {
      const memory = await inserted({ content: 'The first wording of the note.' });
      await store().changeMemory(
        request(memory, { content: 'A newer wording from another window.' }, { expected_version: 1 }),
      );
      await assert.rejects(
        store().changeMemory(
          request(memory, { content: 'A stale edit of the first wording.' }, { expected_version: 1 }),
        ),
        (error: unknown) => {
          assert.ok(MemoryError.is(error, 'CONFLICT'), String(error));
          assert.equal(error.retryable, false);
          assert.equal(error.details?.current_version, 2);
          return true;
        },
      );
      const row = await stored(memory);
      assert.equal(row.content, 'A newer wording from another window.');
      assert.equal(row.version, 2);
    });

    it('new content is what the text search finds; the old words are gone', async () => {
      const memory = await inserted({ content: 'The capybara service owns billing.' });
      await store().changeMemory(request(memory, { content: 'The axolotl service owns billing.' }));
      const hits = async (word: string) =>
        (await store().searchLexical({ filter: { user_id: memory.user_id }, terms: analyzeQuery(word), limit: 5 })).map(
          (hit) => hit.memory_id,
        );
      assert.deepEqual(await hits('capybara'), []);
      assert.deepEqual(await hits('axolotl'), [memory.memory_id]);
    });

    it('forget racing edits, background results and access bumps: forgotten at the end, until restored', async () => {
      const memory = await inserted({ content: 'A memory the user forgets while work on it is in flight.' });
      const racing: Promise<unknown>[] = [];
      for (let index = 0; index < concurrency; index++) {
        racing.push(
          store().changeMemory(
            request(memory, { merge_metadata: { [`bg_${index}`]: index } }, { if_forgotten: 'drop' }),
          ),
          store().recordAccess([makeAccess(memory)]),
        );
        if (index === Math.floor(concurrency / 2))
          racing.push(store().forgetMemories(memory.user_id, [memory.memory_id], iso(6)));
      }
      await Promise.all(racing);
      // Changes arriving after the forget: a background writer's is dropped, a user's refused.
      const late = await store().changeMemory(
        request(memory, { merge_metadata: { late: true }, add_tags: ['late'] }, { if_forgotten: 'drop' }),
      );
      assert.deepEqual(late, { status: 'dropped', reason: 'forgotten' });
      await assert.rejects(store().changeMemory(request(memory, { set: { pinned: true } })), (error: unknown) =>
        MemoryError.is(error, 'MEMORY_NOT_FOUND'),
      );
      const row = await stored(memory);
      assert.equal(row.deleted_at !== null, true, 'still forgotten');
      assert.equal(row.metadata.late, undefined);
      const live = await store().listMemories({
        filter: { user_id: memory.user_id },
        sort: 'created',
        offset: 0,
        limit: 10,
      });
      assert.deepEqual(live.items, [], 'not listed while forgotten');

      const restored = await store().restoreMemories(memory.user_id, [memory.memory_id], iso(7));
      assert.deepEqual(restored.changed, [memory.memory_id]);
      assert.equal((await stored(memory)).deleted_at, null);
    });

    it('forgets and restores many ids in one call, saying which changed, which already were, which do not exist', async () => {
      const user = newUserId();
      const memories = Array.from({ length: 5 }, () => makeMemory(user));
      for (const memory of memories) await store().insertMemory(memory, null);
      const ids = memories.map((memory) => memory.memory_id);
      const foreign = await inserted();
      const first = await store().forgetMemories(user, ids.slice(0, 2), iso(6));
      assert.deepEqual([...first.changed].sort(), [...ids.slice(0, 2)].sort());
      const batch = await store().forgetMemories(user, [...ids, foreign.memory_id, 'mem_missing'], iso(7));
      assert.deepEqual([...batch.changed].sort(), [...ids.slice(2)].sort());
      assert.deepEqual([...batch.unchanged].sort(), [...ids.slice(0, 2)].sort());
      assert.deepEqual([...batch.missing].sort(), [foreign.memory_id, 'mem_missing'].sort());
      assert.equal((await stored(foreign)).deleted_at, null, "another user's memory is untouched");
      const rows = await store().getMemories(user, ids);
      assert.ok(rows.every((row) => row.deleted_at !== null));
      const back = await store().restoreMemories(user, ids, iso(8));
      assert.equal(back.changed.length, 5);
      assert.ok((await store().getMemories(user, ids)).every((row) => row.deleted_at === null));
    });

    it('an erased memory cannot come back: changes find nothing and its id cannot be inserted again', async () => {
      const memory = await inserted();
      await store().insertMemory(makeMemory(memory.user_id), null);
      assert.equal(await store().hardDeleteMemory(memory.user_id, memory.memory_id), true);
      assert.deepEqual(
        await store().changeMemory(request(memory, { merge_metadata: { x: 1 } }, { if_forgotten: 'drop' })),
        {
          status: 'dropped',
          reason: 'missing',
        },
      );
      await assert.rejects(store().insertMemory(memory, null), (error: unknown) =>
        MemoryError.is(error, 'INVALID_INPUT'),
      );
      assert.deepEqual(await store().getMemories(memory.user_id, [memory.memory_id]), []);
    });

    /** The guard store_memory passes: the same rule as its search (duplicateProbe.ts). */
    function guardFor(user: string, content: string, mark: string, vector: StoredEmbedding | null): DuplicateGuard {
      const probe = duplicateProbeOf({
        scope: { layer: 'user' as const, scope_id: user },
        project_id: null,
        content,
        terms: analyzeQuery(content).slice(0, 12),
        embedding: vector,
        fact: null,
      });
      return {
        mark,
        candidates: {
          filter: { user_id: user, project_id: null, scopes: [probe.scope] },
          terms: probe.terms,
          limit: 5,
        },
        wantsEmbeddings: vector !== null,
        similarity: (candidate, stored) => duplicateSimilarity(probe, duplicateCandidateOf(candidate), stored),
        threshold: 0.95,
      };
    }

    it(`${concurrency} concurrent guarded inserts of one text from one mark leave one memory; the others name it`, async () => {
      const user = newUserId();
      const content = 'Deploys go through the staging cluster before production, every Tuesday.';
      const mark = await store().duplicateMark(user);
      const copies = Array.from({ length: concurrency }, () => makeMemory(user, { content }));
      const outcomes = await Promise.all(
        copies.map((copy) => store().insertUnlessDuplicate(copy, null, guardFor(user, content, mark, null))),
      );
      const inserted = outcomes.flatMap((outcome, index) => (outcome.status === 'inserted' ? [copies[index]] : []));
      assert.equal(inserted.length, 1, `${inserted.length} of ${concurrency} identical inserts were stored`);
      for (const outcome of outcomes) {
        if (outcome.status === 'inserted') continue;
        assert.equal(outcome.status, 'duplicate');
        if (outcome.status === 'duplicate') {
          assert.equal(outcome.memory.memory_id, inserted[0].memory_id);
          assert.equal(outcome.similarity, 1);
        }
      }
      const listed = await store().listMemories({ filter: { user_id: user }, sort: 'created', offset: 0, limit: 100 });
      assert.equal(listed.total, 1);
    });

    it('a guarded insert is not stopped by what cannot be its duplicate: other text, forgotten, another scope', async () => {
      const user = newUserId();
      const content = 'The billing service retries webhooks three times with exponential backoff.';
      const mark = await store().duplicateMark(user);
      const forgotten = makeMemory(user, { content });
      await store().insertMemory(forgotten, null);
      await store().forgetMemories(user, [forgotten.memory_id], iso(2));
      await store().insertMemory(makeMemory(user, { content, layer: 'agent', scope_id: 'copilot' }), null);
      await store().insertMemory(makeMemory(user, { content: 'The search service caches results for an hour.' }), null);
      const fresh = makeMemory(user, { content });
      assert.deepEqual(await store().insertUnlessDuplicate(fresh, null, guardFor(user, content, mark, null)), {
        status: 'inserted',
      });
      assert.equal((await store().getMemories(user, [fresh.memory_id])).length, 1);
    });

    it('a guarded insert finds a duplicate by its vector, written after the mark', async () => {
      const user = newUserId();
      const vector = embedding(new Float32Array([0.6, 0.8, 0, 0]));
      const mark = await store().duplicateMark(user);
      const first = makeMemory(user, { content: 'Use pnpm for the web workspace.', embedding_model: vector.model });
      await store().insertMemory(first, vector);
      const second = makeMemory(user, { content: 'The web workspace is managed with pnpm.' });
      const outcome = await store().insertUnlessDuplicate(second, vector, guardFor(user, second.content, mark, vector));
      assert.equal(outcome.status, 'duplicate');
      if (outcome.status === 'duplicate') assert.equal(outcome.memory.memory_id, first.memory_id);
      assert.deepEqual(await store().getMemories(user, [second.memory_id]), []);
    });

    it('an embedding change keeps the row and replaces the vector', async () => {
      const memory = await inserted({ metadata: { a: 1 } });
      const vector = embedding(new Float32Array([0, 1, 0, 0]));
      await store().changeMemory(request(memory, { embedding: vector }, { at: null }));
      const row = await stored(memory);
      assert.equal(row.embedding_model, vector.model);
      assert.deepEqual(row.metadata, { a: 1 });
      assert.equal((await store().getEmbeddings(memory.user_id, [memory.memory_id])).size, 1);
    });
  });
}
