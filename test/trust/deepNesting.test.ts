import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { LIMITS } from '../../src/core/validation.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

function nested(levels: number, wrap: (inner: unknown) => unknown): Record<string, unknown> {
  let value: unknown = { leaf: true };
  for (let level = 0; level < levels; level++) value = wrap(value);
  return { deep: value };
}

describe('deeply nested input is bad input, not a backend failure (issue 13.11)', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('answers INVALID_INPUT, not retryable, for objects and arrays 3,000 levels deep in every metadata field', async () => {
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'alice' });
    const { memory_id } = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: 'alice',
      content: 'The API runs on port 8080',
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    for (const metadata of [nested(3000, (inner) => ({ n: inner })), nested(3000, (inner) => [inner])]) {
      for (const [tool, args] of [
        [
          'store_memory',
          {
            user_id: 'alice',
            content: 'Deep metadata memory',
            memory_category: 'semantic',
            memory_subtype: 'project',
            metadata,
          },
        ],
        ['add_to_working_memory', { session_id, content: 'Deep metadata item', content_type: 'message', metadata }],
        ['update_memory', { user_id: 'alice', memory_id, metadata }],
      ] as const) {
        const result = await client.callTool({ name: tool, arguments: args });
        assert.equal(result.isError, true, tool);
        const { error } = JSON.parse(String((result.content as Array<{ text: string }>)[0]!.text.split('\n')[1])) as {
          error: { code: string; retryable: boolean; details: { max_depth: number } };
        };
        assert.equal(error.code, 'INVALID_INPUT', tool);
        assert.equal(error.retryable, false);
        assert.equal(error.details.max_depth, LIMITS.jsonDepth);
      }
    }
    const stored = (await listAllMemories(test.store, { user_id: 'alice' })).items;
    assert.deepEqual(
      stored.map((memory) => memory.content),
      ['The API runs on port 8080'],
      'nothing deep was stored',
    );
    assert.deepEqual(stored[0]!.metadata, {});
    assert.equal((await test.store.listWorkingItems(session_id)).length, 0);
  });

  it('keeps accepting metadata within the limit', async () => {
    const metadata = nested(LIMITS.jsonDepth - 2, (inner) => ({ n: inner }));
    const { memory_id } = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: 'bob',
      content: 'Nested but fine',
      memory_category: 'semantic',
      memory_subtype: 'project',
      metadata,
    });
    const [memory] = await test.core.getMemories('bob', [memory_id]);
    assert.deepEqual(memory?.metadata, metadata);
    assert.equal(
      (
        await callError(client, 'store_memory', {
          user_id: 'bob',
          content: 'One too deep',
          memory_category: 'semantic',
          memory_subtype: 'project',
          metadata: nested(LIMITS.jsonDepth, (inner) => ({ n: inner })),
        })
      ).code,
      'INVALID_INPUT',
    );
  });
});
