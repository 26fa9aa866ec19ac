import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { activeFactsForContext } from '../../../src/core/facts/factsForContext.ts';
import { scopeFor } from '../../../src/core/layers/layerScope.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

describe('structured facts', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(async () => {
    await test.cleanup();
  });

  it('keeps one active value per key, updated only at equal or higher confidence, with history', async () => {
    const first = await test.core.setFact({
      user_id: 'u1',
      category: 'identity',
      key: 'Name',
      value: 'Alex',
      confidence: 1,
    });
    assert.equal(first.action, 'created');
    assert.equal(first.fact.key, 'name');
    const lower = await test.core.setFact({
      user_id: 'u1',
      category: 'identity',
      key: 'name',
      value: 'Al',
      confidence: 0.6,
    });
    assert.equal(lower.action, 'ignored');
    assert.equal(lower.fact.value, 'Alex');
    const same = await test.core.setFact({ user_id: 'u1', category: 'identity', key: 'name', value: 'Alex' });
    assert.equal(same.action, 'unchanged');
    const updated = await test.core.setFact({
      user_id: 'u1',
      category: 'identity',
      key: 'name',
      value: 'Alexander',
      confidence: 1,
    });
    assert.equal(updated.action, 'updated');
    assert.equal(updated.previous?.value, 'Alex');
    assert.equal(updated.previous?.superseded_by, updated.fact.memory_id);

    const { facts: active } = await test.core.getFacts({
      user_id: 'u1',
      category: 'identity',
      key: 'name',
      include_history: true,
    });
    assert.equal(active.length, 1);
    assert.equal(active[0].value, 'Alexander');
    assert.deepEqual(
      active[0].history?.map((fact) => fact.value),
      ['Alex'],
    );
    const memory = await test.core.getMemory('u1', active[0].memory_id);
    assert.ok(memory.tags.includes('fact:identity/name'));
    assert.deepEqual(memory.metadata.fact, { category: 'identity', key: 'name', value: 'Alexander' });
  });

  it('lists all active facts and feeds them to context, and another user sees none', async () => {
    await test.core.setFact({
      user_id: 'u2',
      category: 'preference',
      key: 'timezone',
      value: 'Europe/Berlin',
      importance: 0.9,
    });
    await test.core.setFact({
      user_id: 'u2',
      category: 'constraint',
      key: 'availability',
      value: 'no meetings on Fridays',
      importance: 0.6,
    });
    const all = await test.core.getFacts({ user_id: 'u2' });
    assert.deepEqual(
      all.facts.map((fact) => fact.key),
      ['timezone', 'availability'],
    );
    assert.deepEqual((await test.core.getFacts({ user_id: 'stranger' })).facts, []);
    const items = await activeFactsForContext(test.deps, [scopeFor('user', { user_id: 'u2' })], 'u2', null);
    assert.equal(items.length, 2);
    assert.equal(items[0].content, 'preference/timezone: Europe/Berlin');
    assert.ok(
      items.every(
        (item) => item.relevance_score === 1 && item.token_count > 0 && item.why_included.includes('Structured fact'),
      ),
    );
  });

  it('deletes the active value softly and rejects bad input', async () => {
    await test.core.setFact({
      user_id: 'u3',
      category: 'instruction',
      key: 'tests',
      value: 'always run the full suite',
    });
    const deleted = await test.core.deleteFact({ user_id: 'u3', category: 'instruction', key: 'tests' });
    assert.equal(deleted.deleted, true);
    assert.deepEqual((await test.core.getFacts({ user_id: 'u3' })).facts, []);
    assert.ok((await test.core.getMemory('u3', deleted.memory_id)).deleted_at);
    await assert.rejects(test.core.deleteFact({ user_id: 'u3', category: 'instruction', key: 'tests' }), (error) =>
      MemoryError.is(error, 'MEMORY_NOT_FOUND'),
    );
    await assert.rejects(test.core.setFact({ user_id: 'u3', category: 'mood', key: 'x', value: 'y' }), (error) =>
      MemoryError.is(error, 'INVALID_INPUT'),
    );
    await assert.rejects(
      test.core.setFact({ user_id: 'u3', category: 'identity', key: 'bad key!', value: 'y' }),
      (error) => MemoryError.is(error, 'INVALID_INPUT'),
    );
    await assert.rejects(test.core.getFacts({ user_id: 'u3', key: 'name' }), (error) =>
      MemoryError.is(error, 'INVALID_INPUT'),
    );
  });

  it('keeps one active value when sets race', async () => {
    await Promise.all(
      ['vim', 'emacs', 'vscode', 'helix'].map((value) =>
        test.core.setFact({ user_id: 'u4', category: 'preference', key: 'editor', value }),
      ),
    );
    const { facts: active } = await test.core.getFacts({ user_id: 'u4', include_history: true });
    assert.equal(active.length, 1);
    assert.equal(active[0].history?.length, 3);
  });

  // Regression: "editor 0: X" and "editor 1: X" read as near-duplicates, and the second set_fact
  // was merged into the first key's memory, rewriting its metadata: one fact silently vanished, and
  // with two processes setting the two keys at once, set_fact failed with "did not produce a fact memory".
  it('never merges a fact into a near-identical memory of another key', async () => {
    const value =
      'neovim with the lazy plugin manager, telescope for fuzzy finding, treesitter highlighting and the gruvbox colour scheme';
    const first = await test.core.setFact({ user_id: 'u5', category: 'preference', key: 'editor_0', value });
    const second = await test.core.setFact({ user_id: 'u5', category: 'preference', key: 'editor_1', value });
    assert.equal(second.action, 'created');
    assert.notEqual(second.fact.memory_id, first.fact.memory_id);
    const racing = await Promise.all(
      [2, 3, 4].map((index) =>
        test.core.setFact({ user_id: 'u5', category: 'preference', key: `editor_${index}`, value }),
      ),
    );
    assert.deepEqual(
      racing.map((result) => result.action),
      ['created', 'created', 'created'],
    );
    const { facts: active } = await test.core.getFacts({ user_id: 'u5', category: 'preference' });
    assert.deepEqual(
      active.map((fact) => `${fact.key}=${fact.value === value}`).sort(),
      [0, 1, 2, 3, 4].map((index) => `editor_${index}=true`),
    );
    assert.equal(new Set(active.map((fact) => fact.memory_id)).size, 5, 'five memories, one per key');
    assert.deepEqual((await test.core.getMemory('u5', first.fact.memory_id)).metadata.fact, {
      category: 'preference',
      key: 'editor_0',
      value,
    });
    // A fact's own key still deduplicates: the same value again is reported unchanged, not stored twice.
    assert.equal(
      (await test.core.setFact({ user_id: 'u5', category: 'preference', key: 'editor_0', value })).action,
      'unchanged',
    );
  });
});
