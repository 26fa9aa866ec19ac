import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { ShortIdRegistry, withFullIds } from '../../src/mcp/shortIds.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

const A = 'mem_1a2b3c4d00000000000000000000000a';
const B = 'mem_1a2b3c4d00000000000000000000000b';

describe('short memory ids', () => {
  it('shows mem_ and 8 hex digits, and resolves them back for the same user only', () => {
    const ids = new ShortIdRegistry();
    assert.equal(ids.shorten('alex', A), 'mem_1a2b3c4d');
    assert.equal(ids.resolve('alex', 'mem_1a2b3c4d', 'memory_id'), A);
    assert.throws(
      () => ids.resolve('sam', 'mem_1a2b3c4d', 'memory_id'),
      (error: unknown) =>
        MemoryError.is(error, 'MEMORY_NOT_FOUND') && /short id this server has not shown you/.test(error.message),
    );
  });

  it('lengthens the short id of a second memory sharing the first 8 digits', () => {
    const ids = new ShortIdRegistry();
    assert.equal(ids.shorten('alex', A), 'mem_1a2b3c4d');
    assert.equal(ids.shorten('alex', B), 'mem_1a2b3c4d0000');
    assert.equal(ids.resolve('alex', 'mem_1a2b3c4d', 'memory_id'), A);
    assert.equal(ids.resolve('alex', 'mem_1a2b3c4d0000', 'memory_id'), B);
    assert.equal(ids.shorten('alex', A), 'mem_1a2b3c4d', 'a memory keeps its short id');
  });

  it('passes full ids and ids of other shapes through untouched', () => {
    const ids = new ShortIdRegistry();
    assert.equal(ids.resolve('alex', A, 'memory_id'), A);
    assert.equal(ids.shorten('alex', 'imported-42'), 'imported-42');
    assert.equal(ids.resolve('alex', 'imported-42', 'memory_id'), 'imported-42');
  });

  it('forgets the least recently shown ids beyond its capacity', () => {
    const ids = new ShortIdRegistry(2);
    ids.shorten('alex', A);
    ids.shorten('alex', 'mem_22222222000000000000000000000000');
    ids.shorten('alex', 'mem_33333333000000000000000000000000');
    assert.throws(
      () => ids.resolve('alex', 'mem_1a2b3c4d', 'memory_id'),
      (error: unknown) => MemoryError.is(error, 'MEMORY_NOT_FOUND'),
    );
    assert.equal(ids.resolve('alex', 'mem_33333333', 'memory_id'), 'mem_33333333000000000000000000000000');
    assert.throws(
      () => new ShortIdRegistry(0),
      (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR'),
    );
  });

  it('replaces every memory-id argument, and only those', () => {
    const ids = new ShortIdRegistry();
    ids.shorten('alex', A);
    ids.shorten('alex', B);
    const args = { memory_id: 'mem_1a2b3c4d', superseded_by: 'mem_1a2b3c4d0000', content: 'mem_1a2b3c4d' };
    assert.deepEqual(withFullIds(ids, 'alex', args), { memory_id: A, superseded_by: B, content: 'mem_1a2b3c4d' });
    assert.deepEqual(withFullIds(ids, 'alex', { other_memory_id: 'mem_1a2b3c4d', supersedes: 'mem_1a2b3c4d0000' }), {
      other_memory_id: A,
      supersedes: B,
    });
    assert.deepEqual(args.memory_id, 'mem_1a2b3c4d', 'the given arguments are not mutated');
  });

  describe('over MCP', () => {
    let test: TestCore;
    before(async () => {
      test = await createTestCore();
    });
    after(async () => {
      await test.cleanup();
    });

    it('update_memory and forget_memory take the short id a recall showed', async () => {
      const { client, close } = await connectClient({ core: test.core, defaultUserId: 'alex' });
      try {
        const { memory_id } = await callOk<{ memory_id: string }>(client, 'store_memory', {
          content: 'Staging deploys run from the release branch every Tuesday.',
          memory_category: 'procedural',
          memory_subtype: 'workflow',
        });
        const recalled = await client.callTool({
          name: 'recall_memories',
          arguments: { query: 'staging deploys release branch' },
        });
        const shown = /^(mem_[0-9a-f]{8}) \(workflow\): Staging deploys/.exec(
          (recalled.content as Array<{ text: string }>)[0]!.text,
        )?.[1];
        assert.equal(shown, memory_id.slice(0, 12));
        await callOk(client, 'update_memory', {
          memory_id: shown,
          content: 'Staging deploys run from the release branch every Wednesday.',
        });
        const [stored] = await test.core.getMemories('alex', [memory_id]);
        assert.equal(stored!.content, 'Staging deploys run from the release branch every Wednesday.');
        await callOk(client, 'forget_memory', { memory_id: shown });
        const again = await client.callTool({
          name: 'recall_memories',
          arguments: { query: 'staging deploys release branch' },
        });
        assert.ok(
          !(again.content as Array<{ text: string }>)[0]!.text.includes(shown!),
          'the forgotten memory is no longer recalled',
        );
      } finally {
        await close();
      }
    });

    it('refuses a short id it never showed, saying how to get a usable one', async () => {
      const { client, close } = await connectClient({ core: test.core, defaultUserId: 'alex' });
      try {
        const error = await callError(client, 'update_memory', { memory_id: 'mem_0badc0de', content: 'x' });
        assert.equal(error.code, 'MEMORY_NOT_FOUND');
        assert.match(
          error.message,
          /memory_id "mem_0badc0de" is a short id this server has not shown you.*full memory_id/,
        );
      } finally {
        await close();
      }
    });
  });
});
