import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accessibleLayers,
  layerPrecedence,
  MEMORY_LAYERS,
  requireLayer,
  requireLayerIdentifiers,
} from '../../src/core/domain/layers.ts';
import {
  groupByPartition,
  identifiersFrom,
  identifiersOfMemory,
  partitionForCall,
  scopeFor,
} from '../../src/core/layers/layerScope.ts';
import { callScopes, readScopes, withLayerDefaults } from '../../src/core/layers/readScopes.ts';

/** The error code and details a call throws. */
function failure(call: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    call();
  } catch (error) {
    const typed = error as { code: string; message: string; details: Record<string, unknown> };
    return { code: typed.code, message: typed.message, details: typed.details };
  }
  throw new Error('expected a failure');
}

describe('layer access (seed 001): who can read and write which partition', () => {
  it('precedence runs 1 (agent) to 7 (company) in seed order', () => {
    assert.deepEqual(
      MEMORY_LAYERS.map((layer) => layerPrecedence(layer)),
      [1, 2, 3, 4, 5, 6, 7],
    );
  });

  it('an unknown layer is INVALID_LAYER naming the field', () => {
    const error = failure(() => requireLayer('galaxy', 'to_layer'));
    assert.equal(error.code, 'INVALID_LAYER');
    assert.deepEqual(error.details, { field: 'to_layer' });
    assert.match(error.message, /"galaxy".*to_layer.*agent, user, session, project, team, org, company/);
    assert.equal(failure(() => requireLayer(3)).details.field, 'layer');
  });

  it('a layer without its identifiers is MISSING_IDENTIFIER listing every missing one', () => {
    const one = failure(() => requireLayerIdentifiers('team', {}));
    assert.equal(one.code, 'MISSING_IDENTIFIER');
    assert.deepEqual(one.details, { layer: 'team', missing: ['team_id'] });
    assert.match(one.message, /needs team_id; pass it /);
    const two = failure(() => requireLayerIdentifiers('agent', {}));
    assert.deepEqual(two.details, { layer: 'agent', missing: ['agent_id', 'user_id'] });
    assert.match(two.message, /needs agent_id and user_id; pass them /);
    assert.doesNotThrow(() => requireLayerIdentifiers('agent', { agent_id: 'a', user_id: 'u' }));
  });

  it('accessible layers are exactly those whose identifiers are all given', () => {
    assert.deepEqual(accessibleLayers({ user_id: 'u' }), ['user']);
    assert.deepEqual(accessibleLayers({ user_id: 'u', agent_id: 'a', team_id: 't' }), ['agent', 'user', 'team']);
    assert.deepEqual(accessibleLayers({ agent_id: 'a' }), [], 'an agent id alone opens nothing');
  });

  it("shared layers get a partition no user id can name; personal ones stay in the user's", () => {
    assert.deepEqual(scopeFor('team', { team_id: 't1', user_id: 'u' }), {
      layer: 'team',
      partition: 'team:t1',
      scope_id: 't1',
    });
    assert.deepEqual(scopeFor('agent', { agent_id: 'a1', user_id: 'u' }), {
      layer: 'agent',
      partition: 'u',
      scope_id: 'a1',
    });
    assert.equal(partitionForCall({ user_id: 'u' }), 'u');
    assert.equal(partitionForCall({ user_id: 'u', layer: null }), 'u');
    assert.equal(partitionForCall({ user_id: 'u', layer: 'org', org_id: 'o1' }), 'org:o1');
    assert.equal(partitionForCall({ user_id: 'u', layer: 'session', session_id: 's1' }), 'u');
    assert.equal(failure(() => partitionForCall({ user_id: 'u', layer: 'org' })).code, 'MISSING_IDENTIFIER');
  });

  it('a memory gives back the identifiers that reach it again', () => {
    assert.deepEqual(identifiersOfMemory({ layer: 'team', scope_id: 't1', user_id: 'team:t1' }), { team_id: 't1' });
    assert.deepEqual(identifiersOfMemory({ layer: 'user', scope_id: 'u', user_id: 'u' }), { user_id: 'u' });
    assert.deepEqual(identifiersOfMemory({ layer: 'agent', scope_id: 'a1', user_id: 'u' }), {
      user_id: 'u',
      agent_id: 'a1',
    });
  });

  it('identifiers from loose input: empty and null are absent, non-strings are INVALID_INPUT', () => {
    assert.deepEqual(
      identifiersFrom({ user_id: 'u', team_id: '', org_id: null as unknown as string, agent_id: undefined }),
      { user_id: 'u' },
    );
    const error = failure(() => identifiersFrom({ team_id: 7 as unknown as string }));
    assert.equal(error.code, 'INVALID_INPUT');
    assert.deepEqual(error.details, { field: 'team_id' });
    assert.equal(error.message, 'team_id must be a string.');
  });

  it('defaults fill only what the call left out', () => {
    assert.deepEqual(
      withLayerDefaults({ user_id: 'u', team_id: 'mine' }, { team_id: 'default-team', org_id: 'default-org' }),
      { user_id: 'u', team_id: 'mine', org_id: 'default-org' },
    );
    assert.deepEqual(
      withLayerDefaults({ user_id: 'u' }, { agent_id: '' }),
      { user_id: 'u' },
      'an empty default opens nothing',
    );
  });

  it('read scopes: most specific first, deduplicated; an empty or non-list layers is INVALID_INPUT, never "search nothing"', () => {
    const ids = { user_id: 'u', team_id: 't', agent_id: 'a' };
    assert.deepEqual(
      readScopes(['team', 'agent', 'team'], ids).map((scope) => scope.layer),
      ['agent', 'team'],
    );
    assert.deepEqual(
      readScopes(undefined, ids).map((scope) => scope.partition),
      ['u', 'u', 'team:t'],
    );
    for (const layers of [[], 'team' as unknown as unknown[]]) {
      const error = failure(() => readScopes(layers, ids));
      assert.equal(error.code, 'INVALID_INPUT');
      assert.deepEqual(error.details, { field: 'layers' });
    }
    assert.equal(
      failure(() => readScopes(['org'], ids)).code,
      'MISSING_IDENTIFIER',
      'asking for a layer without its id is an error',
    );
    assert.deepEqual(failure(() => readScopes(['galaxy'], ids)).details, { field: 'layers' });
    assert.match(failure(() => readScopes([], ids)).message, /non-empty list of layers; omit it to search every layer/);
  });

  it('call scopes add the project in effect and the configured defaults', () => {
    const scopes = callScopes({}, 'u', 'proj-1', { team_id: 'dt' });
    assert.deepEqual(
      scopes.map((scope) => scope.partition),
      ['u', 'project:proj-1', 'team:dt'],
    );
    assert.deepEqual(
      callScopes({}, 'u', null, {}).map((scope) => scope.layer),
      ['user'],
    );
    assert.deepEqual(
      callScopes({}, 'u', undefined, {}).map((scope) => scope.layer),
      ['user'],
    );
  });

  it('scopes group by partition in the order first seen', () => {
    const groups = groupByPartition(readScopes(undefined, { user_id: 'u', agent_id: 'a', team_id: 't' }));
    assert.deepEqual([...groups.keys()], ['u', 'team:t']);
    assert.deepEqual(
      groups.get('u')?.map((scope) => scope.layer),
      ['agent', 'user'],
    );
  });
});
