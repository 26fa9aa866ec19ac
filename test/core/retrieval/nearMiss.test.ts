import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rankingFactsOf } from '../../../src/core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import { namesProject, projectOf, questionScope } from '../../../src/core/retrieval/namedScope.ts';
import { memoryRecord } from '../../support/memoryRecord.ts';

const AT = '2026-01-01T00:00:00.000Z';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

describe('the project a question names', () => {
  it('is written with any separator, as one word, or as capital initials', () => {
    assert.ok(namesProject('which queue does orbit tracker use', 'orbit-tracker'));
    assert.ok(namesProject('orbit_tracker: which queue', 'orbit-tracker'));
    assert.ok(namesProject('does OrbitTracker retry', 'orbit-tracker'));
    assert.ok(namesProject('how does OT retry jobs', 'orbit-tracker'));
    assert.ok(!namesProject('ot is short for overtime', 'orbit-tracker'), 'initials count only in capitals');
    assert.ok(!namesProject('which orbit does the probe use', 'orbit-tracker'), 'a part of the name is not the name');
    assert.ok(!namesProject('pebbles on the beach', 'pebble'), 'whole words only');
  });

  it('comes from metadata.project, else the layer project', () => {
    const of = (overrides: Partial<MemoryRecord>) => projectOf(rankingFactsOf(memoryRecord(AT, overrides)));
    assert.equal(of({ metadata: { project: 'pebble' }, project_id: 'other' }), 'pebble');
    assert.equal(of({ metadata: { project: '  pebble ' }, project_id: 'other' }), 'pebble');
    assert.equal(of({ metadata: { project: '   ' }, project_id: 'p1' }), 'p1');
    assert.equal(of({ metadata: {}, project_id: 'p1' }), 'p1');
    assert.equal(of({ metadata: { project: 3 }, project_id: null }), null);
  });

  it('is the bound project when the question names none, and nothing without either', () => {
    assert.deepEqual([...questionScope('which queue', ['a-b'], 'Bound').projects], ['bound']);
    assert.equal(questionScope('which queue', ['a-b'], 'Bound').bound, true);
    assert.equal(questionScope('which queue', ['a-b'], null).projects.size, 0);
    const named = questionScope('which queue does a-b use', ['a-b', 'c'], 'bound');
    assert.deepEqual([...named.projects], ['a-b'], 'a named project wins over the bound one');
    assert.ok(named.nameTerms.has('a-b') || named.nameTerms.has('b'));
  });
});

/** A memory of another project than the question names is a near miss: it does not answer. */
describe('near misses abstain', () => {
  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    const store = (content: string, project: string, extra: Record<string, unknown> = {}) =>
      test.core.storeMemory({
        user_id: user,
        content,
        memory_category: 'episodic',
        memory_subtype: 'decision',
        metadata: { project },
        ...extra,
      });
    await store('orbit-tracker picked Luxon as its date library for parsing and time zones.', 'orbit-tracker');
    await store('orbit-tracker retries failed webhook deliveries three times with backoff.', 'orbit-tracker');
    await store('pebble-cms stores uploaded images in an object bucket, resized on upload.', 'pebble-cms');
    await store('pebble-cms renders pages on the server and caches them for a minute.', 'pebble-cms');
    // Other projects' memories make the name rare, so it weighs much in a question that writes it.
    for (const topic of ['lint rules', 'release notes', 'on-call rota', 'font loading', 'log levels', 'feature flags'])
      await store(`kestrel-api keeps its ${topic} in the docs folder.`, 'kestrel-api');
  });
  after(() => test.cleanup());

  it('returns nothing when only another project has what the question asks for', async () => {
    const result = await test.core.recall({ user_id: user, query: 'which date library does pebble-cms use' });
    assert.equal(result.memories.length, 0);
    assert.equal(result.retrieval_breakdown.abstained, true);
  });

  it('shows the near miss only below an explicit floor of 0, marked weak', async () => {
    const result = await test.core.recall({
      user_id: user,
      query: 'which date library does pebble-cms use',
      min_similarity: 0,
    });
    const luxon = result.memories.find((memory) => memory.content.includes('Luxon'));
    assert.ok(luxon);
    assert.ok(luxon.score_breakdown.signals.includes('other_project'));
    assert.match(luxon.why_matched, /another project/);
  });

  it('answers from the project the question names', async () => {
    const result = await test.core.recall({ user_id: user, query: 'which date library does orbit-tracker use' });
    assert.ok(result.memories[0]?.content.includes('Luxon'));
    assert.ok(result.memories.every((memory) => !memory.content.startsWith('pebble-cms')));
  });

  it('ranks every match of the named project before another project’s, however many words that one shares', async () => {
    // Luxon's memory shares library, parsing, date, time and zones; pebble-cms's shares only caching.
    const result = await test.core.recall({
      user_id: user,
      query: 'which library does pebble-cms use for parsing dates and time zones, and for caching',
      min_similarity: 0,
    });
    const order = result.memories.map((memory) => memory.content);
    const cache = order.findIndex((content) => content.includes('caches them'));
    const luxon = order.findIndex((content) => content.includes('Luxon'));
    assert.ok(cache >= 0 && luxon >= 0, 'both are returned at a floor of 0');
    assert.ok(cache < luxon, `the named project's match ranks first: ${order.join(' | ')}`);
    const scores = result.memories.map((memory) => memory.relevance_score);
    assert.ok(scores[luxon] < scores[cache], 'and its score says so');
  });

  it('does not count the project name as the topic: sharing only the name answers nothing', async () => {
    const result = await test.core.recall({ user_id: user, query: 'which ORM does pebble-cms use' });
    assert.equal(result.memories.length, 0);
  });

  it('answers a question that is only the project name with its memories', async () => {
    const result = await test.core.recall({ user_id: user, query: 'pebble-cms' });
    assert.ok(result.memories.length >= 1);
    assert.ok(result.memories.every((memory) => memory.content.startsWith('pebble-cms')));
  });

  it('keeps today’s answer for a question that names no project', async () => {
    const result = await test.core.recall({ user_id: user, query: 'which date library do we use' });
    assert.ok(result.memories[0]?.content.includes('Luxon'));
  });

  it('compares a bound project id with layer projects only, never with a metadata label', async () => {
    // The workspace's id comes from its git remote; an agent's metadata.project is a free label.
    const result = await test.core.recall({
      user_id: user,
      query: 'which date library do we use',
      project_id: 'pebble-cms',
    });
    assert.ok(result.memories[0]?.content.includes('Luxon'));
    assert.equal(
      questionScope('which queue', [], 'repo-id').bound,
      true,
      'the bound project stands for the question when it names none',
    );
  });
});
