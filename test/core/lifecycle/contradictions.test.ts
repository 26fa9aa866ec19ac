import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { detectContradiction } from '../../../src/core/lifecycle/contradictions.ts';
import { scanContradictions } from '../../../src/core/lifecycle/contradictionScan.ts';
import { supersedeMemory } from '../../../src/core/lifecycle/supersede.ts';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

const m = (
  content: string,
  memory_category: 'semantic' | 'episodic' | 'preference' = 'semantic',
  metadata: Record<string, unknown> = {},
) => ({ content, memory_category, metadata });

test('detects negation, a setting with two values, and fact values', () => {
  assert.equal(
    detectContradiction(
      m('The orders service uses Redis for caching'),
      m('The orders service does not use Redis for caching'),
    )?.kind,
    'negation',
  );
  assert.equal(
    detectContradiction(m('The default port is 8080'), m('The default port is 3000'))?.kind,
    'different_value',
  );
  assert.equal(detectContradiction(m('The default port is 8080'), m('The default port is 3000'))?.strength, 'strong');
  const fact = (value: string) =>
    m(`identity name: ${value}`, 'semantic', { fact: { category: 'identity', key: 'name', value } });
  assert.equal(detectContradiction(fact('Alex'), fact('Sam'))?.kind, 'fact_value');
});

test('a correction contradicts the value it rules out, in each phrasing, and agrees with the value it keeps', () => {
  const stated = m('The cache TTL is 60 seconds');
  for (const correction of [
    'The cache TTL is not 60 seconds, it is 300 seconds',
    "The cache TTL isn't 60 seconds, it's 300 seconds",
    'The cache TTL is not 60 seconds but 300 seconds',
    'The cache TTL is 300 seconds, not 60 seconds',
    'The cache TTL is 300 seconds rather than 60 seconds',
  ]) {
    const found = detectContradiction(stated, m(correction));
    assert.deepEqual([found?.kind, found?.strength], ['negation', 'strong'], correction);
    assert.deepEqual([detectContradiction(m(correction), stated)?.kind], ['negation'], `${correction} (stored first)`);
  }
  assert.equal(detectContradiction(stated, m('The cache TTL is 60 seconds, not 300 seconds')), null);
  assert.equal(detectContradiction(stated, m('The cache TTL is not 300 seconds, it is 60 seconds')), null);
  assert.equal(detectContradiction(stated, m('The session TTL is not 60 seconds, it is 300 seconds')), null);
});

test('does not flag compatible or unrelated statements', () => {
  assert.equal(detectContradiction(m('The API is written in Go'), m('The API is deployed on Fly.io')), null);
  assert.equal(detectContradiction(m('Deployed v1 today', 'episodic'), m('Did not deploy v1 today', 'episodic')), null);
  assert.equal(detectContradiction(m('The default port is 8080'), m('The default port is 8080.')), null);
  // Two plain adjectives may both hold: reported for review (weak), never acted on.
  assert.equal(detectContradiction(m('The API is fast'), m('The API is stable'))?.strength, 'weak');
});

describe('contradictions in the store', () => {
  let t: TestCore;
  before(async () => {
    t = await createTestCore();
  });
  after(async () => {
    await t.cleanup();
  });

  it('supersedes the older memory and lowers its confidence when a new one contradicts it', async () => {
    const older = await t.core.storeMemory({
      user_id: 'c1',
      content: 'The default port is 8080',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const newer = await t.core.storeMemory({
      user_id: 'c1',
      content: 'The default port is 3000',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    assert.equal(newer.contradicts?.memory_id, older.memory_id);
    const old = await t.core.getMemory('c1', older.memory_id);
    assert.equal(old.superseded_by, newer.memory_id);
    assert.ok(old.confidence <= 0.5);
    assert.equal((await t.core.getMemory('c1', newer.memory_id)).supersedes, older.memory_id);
  });

  it('scans for suspected pairs and supersedes explicitly, per user', async () => {
    await t.core.storeMemory({
      user_id: 'c2',
      content: 'We deploy the billing service on Fridays',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      pinned: true,
    });
    await t.core.storeMemory({
      user_id: 'c2',
      content: 'We never deploy the billing service on Fridays',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
    });
    const scan = await scanContradictions(t.deps, 'c2');
    assert.equal(scan.pairs.length, 1);
    assert.equal(scan.pairs[0].kind, 'negation');
    assert.deepEqual((await scanContradictions(t.deps, 'c1')).pairs, []);
    const result = await supersedeMemory(t.deps, {
      user_id: 'c2',
      memory_id: scan.pairs[0].older.memory_id,
      superseded_by: scan.pairs[0].newer.memory_id,
      reason: 'policy changed',
    });
    assert.ok(result.confidence <= 0.5);
    await assert.rejects(
      supersedeMemory(t.deps, {
        user_id: 'someone-else',
        memory_id: scan.pairs[0].older.memory_id,
        superseded_by: scan.pairs[0].newer.memory_id,
      }),
      (error) => MemoryError.is(error, 'MEMORY_NOT_FOUND'),
    );
  });
});
