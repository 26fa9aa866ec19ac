import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { CallerAccess } from '../../src/mcp/callerAccess.ts';
import type { ServerContext } from '../../src/mcp/serverContext.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/** The code of the MemoryError `run` throws. */
function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(MemoryError.is(error), String(error));
    return error.code;
  }
  return 'none';
}

describe('CallerAccess: who a call acts for, resolved once', () => {
  let t: TestCore;
  let bound: ServerContext;
  let unbound: ServerContext;
  before(async () => {
    t = await createTestCore({ defaultProjectId: 'osprey', config: { layerDefaults: { team_id: 'core-team' } } });
    bound = { core: t.core, defaultUserId: 'ana', readableProjectIds: ['heron'] };
    unbound = { core: t.core };
  });
  after(() => t.cleanup());

  it('on a bound server: the bound user when none is named; UNAUTHORIZED for another, for user and session tools alike', () => {
    assert.equal(CallerAccess.resolve(bound, undefined).user(), 'ana');
    assert.equal(CallerAccess.resolve(bound, 'ana').user(), 'ana');
    assert.deepEqual(CallerAccess.resolve(bound, undefined).sessionOwner(), { user_id: 'ana' });
    const other = CallerAccess.resolve(bound, 'bob');
    assert.equal(
      codeOf(() => other.user()),
      'UNAUTHORIZED',
    );
    assert.equal(
      codeOf(() => other.sessionOwner()),
      'UNAUTHORIZED',
    );
  });

  it('on an unbound server: any named user; MISSING_IDENTIFIER without one, while a session tool lets the session id decide', () => {
    assert.equal(CallerAccess.resolve(unbound, 'bob').user(), 'bob');
    assert.equal(
      codeOf(() => CallerAccess.resolve(unbound, undefined).user()),
      'MISSING_IDENTIFIER',
    );
    assert.deepEqual(CallerAccess.resolve(unbound, undefined).sessionOwner(), {});
    // A user_id of the wrong type is the schema's to refuse; it names no one here.
    assert.equal(CallerAccess.resolve(unbound, 42).userId, undefined);
    assert.equal(CallerAccess.resolve(bound, 42).userId, undefined);
  });

  it('grants a bound server its own project and team, reads other projects only when opened, and completes layer arguments', () => {
    const caller = CallerAccess.resolve(bound, undefined);
    assert.equal(
      codeOf(() => caller.authorizeLayers({ team_id: 'other-team' })),
      'UNAUTHORIZED',
    );
    assert.equal(
      codeOf(() => caller.authorizeLayers({ org_id: 'acme' })),
      'UNAUTHORIZED',
    );
    assert.deepEqual(caller.authorizeLayers({ project_id: 'heron' }, 'read'), { project_id: 'heron' });
    assert.equal(
      codeOf(() => caller.authorizeLayers({ project_id: 'heron' }, 'write')),
      'UNAUTHORIZED',
    );
    assert.equal(
      codeOf(() => caller.authorizeLayers({ project_id: 'kestrel' }, 'read')),
      'UNAUTHORIZED',
    );
    assert.deepEqual(caller.resolveLayerArgs({}), { project_id: 'osprey', team_id: 'core-team' });
    // Unbound: whatever the call names.
    assert.deepEqual(CallerAccess.resolve(unbound, 'bob').authorizeLayers({ team_id: 'x', project_id: 'y' }, 'write'), {
      team_id: 'x',
      project_id: 'y',
    });
  });
});

describe('one resolution of the caller per tool call (real MCP client)', () => {
  let t: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    t = await createTestCore();
    ({ client, close } = await connectClient({ core: t.core, defaultUserId: 'ana' }));
  });
  after(async () => {
    await close();
    await t.cleanup();
  });

  it('resolves the user once for a call that stores, once for one that is refused, and the tool acts for that user', async () => {
    const resolve = mock.method(CallerAccess, 'resolve');
    try {
      const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
        content: 'The osprey service deploys from the main branch',
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      assert.equal(resolve.mock.callCount(), 1);
      assert.equal((await t.core.getMemory('ana', stored.memory_id)).user_id, 'ana');
      const refused = await callError(client, 'recall_memories', { user_id: 'bob', query: 'osprey deploys' });
      assert.equal(refused.code, 'UNAUTHORIZED');
      assert.equal(resolve.mock.callCount(), 2);
    } finally {
      resolve.mock.restore();
    }
  });
});
