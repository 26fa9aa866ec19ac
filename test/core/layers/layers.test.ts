import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import {
  accessibleLayers,
  layerPrecedence,
  MEMORY_LAYERS,
  requireLayer,
  requireLayerIdentifiers,
} from '../../../src/core/domain/layers.ts';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import type { Fact } from '../../../src/core/facts/factModel.ts';
import { effectiveFacts } from '../../../src/core/facts/factPrecedence.ts';
import { identifiersOfMemory, partitionForCall, scopeFor } from '../../../src/core/layers/layerScope.ts';
import { mergeByPrecedence } from '../../../src/core/layers/precedenceMerge.ts';
import { readScopes } from '../../../src/core/layers/readScopes.ts';
import { consolidateMemories } from '../../../src/core/lifecycle/consolidation.ts';
import { makeMemory } from '../../contract/fixtures.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (MemoryError.is(error)) return error.code;
    throw error;
  }
  return 'none';
};

describe('memory layers (seed 001)', () => {
  it('orders the seven layers from most to least specific', () => {
    assert.deepEqual([...MEMORY_LAYERS], ['agent', 'user', 'session', 'project', 'team', 'org', 'company']);
    assert.ok(layerPrecedence('project') < layerPrecedence('company'));
    assert.equal(
      code(() => requireLayer('galaxy')),
      'INVALID_LAYER',
    );
  });

  it('opens a layer only when all of its identifiers are given (requirements matrix)', () => {
    assert.deepEqual(accessibleLayers({ user_id: 'u' }), ['user']);
    assert.deepEqual(accessibleLayers({ agent_id: 'a' }), []);
    assert.deepEqual(
      accessibleLayers({
        user_id: 'u',
        agent_id: 'a',
        session_id: 's',
        project_id: 'p',
        team_id: 't',
        org_id: 'o',
        company_id: 'c',
      }),
      [...MEMORY_LAYERS],
    );
    assert.deepEqual(accessibleLayers({ project_id: 'p', company_id: 'c' }), ['project', 'company']);
    assert.equal(
      code(() => requireLayerIdentifiers('session', { user_id: 'u' })),
      'MISSING_IDENTIFIER',
    );
    assert.equal(
      code(() => requireLayerIdentifiers('agent', { agent_id: 'a' })),
      'MISSING_IDENTIFIER',
    );
  });

  it('keeps personal layers in the user partition and gives shared layers their own', () => {
    assert.deepEqual(scopeFor('agent', { user_id: 'u', agent_id: 'copilot' }), {
      layer: 'agent',
      partition: 'u',
      scope_id: 'copilot',
    });
    assert.deepEqual(scopeFor('team', { team_id: 'core' }), {
      layer: 'team',
      partition: 'team:core',
      scope_id: 'core',
    });
    assert.deepEqual(identifiersOfMemory({ layer: 'session', scope_id: 's1', user_id: 'u' }), {
      user_id: 'u',
      session_id: 's1',
    });
    assert.equal(partitionForCall({ user_id: 'u' }), 'u');
    assert.equal(partitionForCall({ user_id: 'u', layer: 'org', org_id: 'acme' }), 'org:acme');
    assert.equal(
      code(() => partitionForCall({ user_id: 'org:acme' })),
      'INVALID_INPUT',
    );
  });

  it('reads the requested layers in precedence order and refuses an empty or unknown list', () => {
    const ids = { user_id: 'u', project_id: 'p', company_id: 'c' };
    assert.deepEqual(
      readScopes(undefined, ids).map((scope) => scope.layer),
      ['user', 'project', 'company'],
    );
    assert.deepEqual(
      readScopes(['company', 'user', 'company'], ids).map((scope) => scope.layer),
      ['user', 'company'],
    );
    assert.equal(
      code(() => readScopes([], ids)),
      'INVALID_INPUT',
    );
    assert.equal(
      code(() => readScopes(['galaxy'], ids)),
      'INVALID_LAYER',
    );
    assert.equal(
      code(() => readScopes(['team'], ids)),
      'MISSING_IDENTIFIER',
    );
  });

  it('merges by relevance and lets only a conflicting more specific memory hide a general one', () => {
    const at = (layer: MemoryRecord['layer'], content: string, extra: Partial<MemoryRecord> = {}) =>
      makeMemory('u', {
        layer,
        scope_id: 'x',
        content,
        memory_category: 'preference',
        memory_subtype: 'style',
        ...extra,
      });
    const companySpaces = { memory: at('company', 'Use spaces for indentation'), score: 0.9 };
    const projectTabs = { memory: at('project', 'Use tabs for indentation'), score: 0.6 };
    const companyUnrelated = { memory: at('company', 'Commit messages follow the conventional format'), score: 0.5 };
    const companyCopy = { memory: at('team', 'Commit messages follow the conventional format'), score: 0.4 };
    const { kept, overrides } = mergeByPrecedence([companySpaces, projectTabs, companyUnrelated, companyCopy], 0.95);
    assert.deepEqual(
      kept.map((entry) => entry.memory.content),
      ['Use tabs for indentation', 'Commit messages follow the conventional format'],
    );
    assert.equal(kept[1].memory.layer, 'team');
    assert.deepEqual(
      overrides.get(projectTabs.memory.memory_id)?.map((entry) => entry.layer),
      ['company'],
    );
    assert.match(overrides.get(companyCopy.memory.memory_id)?.[0]?.reason ?? '', /Same memory/);
    const sameLayer = mergeByPrecedence(
      [companySpaces, { memory: at('company', 'Use tabs for indentation'), score: 0.5 }],
      0.95,
    );
    assert.equal(sameLayer.kept.length, 2, 'within one layer nothing is hidden');
  });

  it('takes each fact key from the most specific layer that sets it', () => {
    const fact = (layer: Fact['layer'], value: string, key = 'indentation'): Fact => ({
      category: 'preference',
      key,
      value,
      memory_id: `${layer}-${key}`,
      layer,
      scope_id: 'x',
      confidence: 1,
      importance: 0.5,
      active: true,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      supersedes: null,
      superseded_by: null,
      deleted: false,
    });
    const effective = effectiveFacts([
      fact('company', 'spaces'),
      fact('project', 'tabs'),
      fact('org', 'UTC', 'timezone'),
    ]);
    assert.deepEqual(
      effective.map((entry) => [entry.fact.key, entry.fact.value, entry.overridden.map((o) => o.value)]),
      [
        ['indentation', 'tabs', ['spaces']],
        ['timezone', 'UTC', []],
      ],
    );
  });
});

describe('layers and the lifecycle', () => {
  let t: TestCore;
  before(async () => {
    t = await createTestCore();
  });
  after(async () => t.cleanup());

  it('never consolidates memories of different layer scopes: moving knowledge is promotion only', async () => {
    const user = 'layered-consolidation';
    const text = 'The staging cluster restarts every night at two';
    await t.core.storeMemory({
      user_id: user,
      content: text,
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    await t.core.storeMemory({
      user_id: user,
      content: `${text}.`,
      memory_category: 'semantic',
      memory_subtype: 'environment',
      layer: 'agent',
      agent_id: 'copilot',
    });
    const result = await consolidateMemories(t.deps, { user_id: user, threshold: 0.8 });
    assert.equal(result.clusters.length, 0);
    const { items } = await t.core.listMemories({ filter: { user_id: user }, sort: 'created', offset: 0, limit: 10 });
    assert.deepEqual(items.map((memory) => memory.layer).sort(), ['agent', 'user']);
  });
});
