import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { build } from 'esbuild';
import { PanelController, type PanelHandlers } from '../../src/panel/panelController.ts';
import { LIMITS } from '../../src/core/validation.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';
import { SESSION, USER, seedMemories } from './panelHarness.ts';

// Compile-time half of the contract: the handler table is typed by method, so a handler answering
// another method's shape is a type error (tsc fails on an unused @ts-expect-error if it ever compiles).
// @ts-expect-error memory/get answers a MemoryDetail, not a page
export const wrongShape: PanelHandlers['memory/get'] = async () => ({ items: [], total: 0, offset: 0 });

describe('panel request params, checked by their schemas', () => {
  let testCore: TestCore;
  let controller: PanelController;
  let ids: Record<string, string>;
  let nextId = 1;

  async function refusal(method: string, params: unknown): Promise<{ code: string; message: string }> {
    const response = await controller.handle({ kind: 'request', id: nextId++, method, params });
    assert.equal(response.ok, false, `${method} unexpectedly succeeded`);
    return (response as { error: { code: string; message: string } }).error;
  }

  before(async () => {
    testCore = await createTestCore();
    ids = await seedMemories(testCore.core);
    controller = new PanelController({
      core: testCore.core,
      userId: () => USER,
      sessionId: () => SESSION,
      host: 'browser',
      log: () => undefined,
    });
  });

  after(async () => {
    controller.dispose();
    await testCore.cleanup();
  });

  it('refuses a wrong-typed field with INVALID_INPUT naming the method and the field', async () => {
    assert.deepEqual(await refusal('memory/list', { filter: {}, sort: 'recency', offset: 0, limit: '5' }), {
      code: 'INVALID_INPUT',
      message: `memory/list: limit must be a whole number from 0 to ${LIMITS.pageRows}.`,
    });
    assert.deepEqual(await refusal('working/pin', { item_id: 'w1', pinned: 'yes' }), {
      code: 'INVALID_INPUT',
      message: 'working/pin: pinned must be true or false.',
    });
    assert.deepEqual(await refusal('context/preview', { query: 42, token_budget: 100 }), {
      code: 'INVALID_INPUT',
      message: 'context/preview: query must be a string.',
    });
    assert.deepEqual(
      await refusal('memory/search', { query: 'redis', filter: { scope: 'galaxy' }, sort: 'relevance', limit: 5 }),
      {
        code: 'INVALID_INPUT',
        message: 'memory/search: filter.scope must be one of all, user, project, session, shared.',
      },
    );
    // A bad element names its list, not its index.
    assert.deepEqual(
      await refusal('memory/list', { filter: { tags: ['ok', 7] }, sort: 'recency', offset: 0, limit: 5 }),
      {
        code: 'INVALID_INPUT',
        message: `memory/list: filter.tags must be a list of at most ${LIMITS.filterValues} strings.`,
      },
    );
    assert.deepEqual(await refusal('memory/get', 'm-1'), {
      code: 'INVALID_INPUT',
      message: 'memory/get: params must be an object.',
    });
  });

  it('stores nothing from a refused update', async () => {
    const [stored] = await testCore.core.getMemories(USER, [ids.kafka]);
    const refused = await refusal('memory/update', {
      memory_id: ids.kafka,
      content: 'Kafka was replaced.',
      importance: 'high',
    });
    assert.deepEqual(refused, {
      code: 'INVALID_INPUT',
      message: 'memory/update: importance must be a number from 0 to 1.',
    });
    const [after] = await testCore.core.getMemories(USER, [ids.kafka]);
    assert.equal(after?.content, stored?.content);
    assert.equal(after?.importance, stored?.importance);
  });

  it('takes the limits from LIMITS', async () => {
    const ids = Array.from({ length: LIMITS.batchIds + 1 }, (_, index) => `m-${index}`);
    assert.deepEqual(await refusal('memory/forget', { memory_ids: ids }), {
      code: 'INVALID_INPUT',
      message: `memory/forget: memory_ids must be a non-empty list of at most ${LIMITS.batchIds} strings.`,
    });
    assert.equal(
      (await refusal('context/preview', { query: 'q', token_budget: LIMITS.tokenBudget + 1 })).message,
      `context/preview: token_budget must be a whole number from 1 to ${LIMITS.tokenBudget}.`,
    );
  });

  it('answers a purge without confirm: true as unconfirmed, and keeps the memory', async () => {
    assert.equal(
      (await refusal('memory/purge', { memory_ids: [ids.redis], confirm: false })).code,
      'CONFIRMATION_REQUIRED',
    );
    assert.equal((await testCore.core.getMemories(USER, [ids.redis])).length, 1);
  });
});

it('bundles no zod into the webview: it imports the schemas as types only', async () => {
  const root = join(import.meta.dirname, '..', '..');
  const result = await build({
    entryPoints: [join(root, 'webview', 'main.ts')],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'iife',
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  assert.ok(
    inputs.some((input) => input.includes('src/shared/panelProtocol.ts')),
    'the protocol module is bundled (its constants are values)',
  );
  assert.deepEqual(
    inputs.filter((input) => input.includes('node_modules/zod') || input.includes('panelSchemas')),
    [],
  );
});
