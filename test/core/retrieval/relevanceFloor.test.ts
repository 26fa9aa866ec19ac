import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RELEVANCE_FLOOR } from '../../../src/core/coreDeps.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/** The absolute relevance scale, the floor and abstention, in lexical mode (no embedding provider). */
describe('relevance floor and abstention', () => {
  let test: TestCore;
  const ids: Record<string, string> = {};
  const user = 'floor';

  before(async () => {
    test = await createTestCore();
    const memories: Record<string, [string, 'episodic' | 'semantic' | 'procedural', string]> = {
      postgres: [
        'Decision: chose PostgreSQL over MySQL because of JSONB support and better CTE performance.',
        'episodic',
        'decision',
      ],
      deploy: ['Deploys run from the release branch through the staging cluster first.', 'procedural', 'workflow'],
      setter: ['Set the log level to debug when reproducing flaky tests.', 'procedural', 'workflow'],
      cache: ['The API caches user profiles for ten minutes.', 'semantic', 'project'],
      review: ['Pull requests need one approving review before merge.', 'procedural', 'workflow'],
    };
    for (const [key, [content, category, subtype]] of Object.entries(memories)) {
      ids[key] = (
        await test.core.storeMemory({ user_id: user, content, memory_category: category, memory_subtype: subtype })
      ).memory_id;
    }
  });
  after(() => test.cleanup());

  it('finds a memory asked for in other words, and why_matched names the bridge', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'which Postgres did we choose and why' },
      { logAccess: false },
    );
    assert.equal(result.memories[0]?.memory_id, ids.postgres);
    assert.match(result.memories[0].why_matched, /choose ← chose/);
    assert.ok(result.memories[0].relevance_score >= RELEVANCE_FLOOR);
  });

  it('finds a memory naming the quantity a question describes ("lighter" / "weight")', async () => {
    for (const content of [
      'Release notes are written by the on-duty engineer.',
      'The staging database is reset every Sunday.',
      'Screenshots in the docs are taken at 2x.',
      'Translations are synced from the vendor nightly.',
    ]) {
      await test.core.storeMemory({
        user_id: 'quantity',
        content,
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
    }
    const target = await test.core.storeMemory({
      user_id: 'quantity',
      content: 'Tree shaking cut the bundle weight in half.',
      memory_category: 'episodic',
      memory_subtype: 'outcome',
    });
    // Stored later, so without the bridge it would win the tie on "bundle" alone.
    await test.core.storeMemory({
      user_id: 'quantity',
      content: 'The bundle is built with a single entry point.',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const result = await test.core.recall(
      { user_id: 'quantity', query: 'how did we make the bundle lighter' },
      { logAccess: false },
    );
    assert.equal(result.memories[0]?.memory_id, target.memory_id);
    assert.match(result.memories[0].why_matched, /lighter ← weight/);
  });

  it('answers a question about something never stored with an empty list that says so', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'which paper size do I set on the Bluetooth printer' },
      { logAccess: false },
    );
    assert.deepEqual(result.memories, []);
    const breakdown = result.retrieval_breakdown;
    assert.equal(breakdown.abstained, true);
    assert.equal(breakdown.relevance_floor, RELEVANCE_FLOOR);
    assert.equal(
      breakdown.best_below_floor?.memory_id,
      ids.setter,
      'the one memory sharing the word "set" was the best candidate',
    );
    assert.ok(breakdown.best_below_floor!.relevance_score < RELEVANCE_FLOOR);
    assert.ok(breakdown.below_floor >= 1);
    assert.match(breakdown.note ?? '', /^Memory has nothing on this \(best match 0\.\d\d < floor 0\.3\)\.$/);
  });

  it('scores one shared common word far below a full match on the same scale', async () => {
    const weak = await test.core.recall(
      { user_id: user, query: 'which paper size do I set on the Bluetooth printer', min_similarity: 0 },
      { logAccess: false },
    );
    const strong = await test.core.recall(
      { user_id: user, query: 'set the log level to debug', min_similarity: 0 },
      { logAccess: false },
    );
    const weakScore = weak.memories.find((memory) => memory.memory_id === ids.setter)!.score_breakdown.text_match;
    const strongScore = strong.memories.find((memory) => memory.memory_id === ids.setter)!.score_breakdown.text_match;
    assert.ok(strongScore > 0.9, `a full match covers the query (${strongScore})`);
    assert.ok(weakScore < 0.2, `one generic word among unseen ones covers little (${weakScore})`);
  });

  it('applies min_similarity to the final score in lexical mode too', async () => {
    const loose = await test.core.recall(
      { user_id: user, query: 'which paper size do I set on the Bluetooth printer', min_similarity: 0 },
      { logAccess: false },
    );
    assert.deepEqual(
      loose.memories.map((memory) => memory.memory_id),
      [ids.setter],
    );
    const all = await test.core.recall(
      { user_id: user, query: 'which database did we choose and why', min_similarity: 0 },
      { logAccess: false },
    );
    const top = all.memories[0].relevance_score;
    const strict = await test.core.recall(
      { user_id: user, query: 'which database did we choose and why', min_similarity: Math.min(1, top + 0.001) },
      { logAccess: false },
    );
    assert.deepEqual(strict.memories, []);
    assert.equal(strict.retrieval_breakdown.best_below_floor?.memory_id, ids.postgres);
    for (const memory of all.memories) assert.ok(memory.relevance_score >= 0);
  });

  it('returns only memories above the floor, and no memory that shares no word with the query', async () => {
    const result = await test.core.recall({ user_id: user, query: 'pull requests' }, { logAccess: false });
    assert.deepEqual(
      result.memories.map((memory) => memory.memory_id),
      [ids.review],
    );
    assert.equal(result.retrieval_breakdown.abstained, false);
    assert.equal(result.retrieval_breakdown.below_floor, 0);
  });

  it("finds a memory through the agent's alternate wording, counted a little below the query's own", async () => {
    const plain = await test.core.recall(
      { user_id: user, query: 'how long are profiles kept in memory' },
      { logAccess: false },
    );
    const alternate = await test.core.recall(
      {
        user_id: user,
        query: 'how long are profiles kept in memory',
        alternate_queries: ['profile cache duration minutes'],
      },
      { logAccess: false },
    );
    assert.equal(alternate.memories[0]?.memory_id, ids.cache);
    assert.match(alternate.memories[0].why_matched, /alternate query/);
    const before = plain.memories.find((memory) => memory.memory_id === ids.cache)?.score_breakdown.text_match ?? 0;
    assert.ok(alternate.memories[0].score_breakdown.text_match > before);
  });

  it('finds a memory by the keywords it was stored with, below its own words', async () => {
    const stored = await test.core.storeMemory({
      user_id: user,
      content: 'Run the nightly job with ulimit -n 65536 on the worker.',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      keywords: ['too many open files', 'file descriptor limit'],
    });
    const [record] = await test.core.getMemories(user, [stored.memory_id]);
    assert.deepEqual(record.metadata.search_keys, ['too many open files', 'file descriptor limit']);
    const byKey = await test.core.recall({ user_id: user, query: 'file descriptor limit' }, { logAccess: false });
    assert.equal(byKey.memories[0]?.memory_id, stored.memory_id);
    // The same words in content outrank them as keys (keys index at half the weight of content).
    const twin = await test.core.storeMemory({
      user_id: user,
      content: 'The file descriptor limit of the API hosts is 1024.',
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    const both = await test.core.recall({ user_id: user, query: 'file descriptor limit' }, { logAccess: false });
    assert.deepEqual(
      both.memories.slice(0, 2).map((memory) => memory.memory_id),
      [twin.memory_id, stored.memory_id],
    );
  });
});
