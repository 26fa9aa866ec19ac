import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contextOutputSchema } from '../../src/core/api/contextOutput.ts';
import { recallOutputSchema, recalledMemorySchema } from '../../src/core/api/recallOutput.ts';
import { connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema; required?: string[] };

/** recall_memories and get_relevant_context list the core's own result schemas (src/core/api). */
describe('MCP output schemas come from the core API', () => {
  let test: TestCore;
  let client: Awaited<ReturnType<typeof connectClient>>['client'];
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core, defaultUserId: 'alex' }));
    await client.callTool({
      name: 'store_memory',
      arguments: {
        content: 'The orders service uses PostgreSQL 16 for JSONB indexes.',
        memory_category: 'semantic',
        memory_subtype: 'project',
      },
    });
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('lists recall with every field of the core recall result, the breakdown optional', async () => {
    const recall = (await client.listTools()).tools.find((tool) => tool.name === 'recall_memories')!;
    const memory = (recall.outputSchema as JsonSchema).properties!.memories!.items!;
    assert.deepEqual(Object.keys(memory.properties!).sort(), Object.keys(recalledMemorySchema.shape).sort());
    assert.ok(
      !memory.required!.includes('score_breakdown') && !memory.required!.includes('why_matched'),
      'the breakdown comes with explain only',
    );
    assert.ok(memory.required!.includes('memory_id') && memory.required!.includes('layer'));
    const breakdown = (recall.outputSchema as JsonSchema).properties!.retrieval_breakdown!;
    assert.deepEqual(
      Object.keys(breakdown.properties!).sort(),
      Object.keys(recallOutputSchema.shape.retrieval_breakdown.shape).sort(),
    );
  });

  it('an explained recall answers exactly the core schema', async () => {
    const result = await client.callTool({
      name: 'recall_memories',
      arguments: { query: 'orders PostgreSQL', explain: true },
    });
    const parsed = recallOutputSchema.safeParse(result.structuredContent);
    assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
    assert.ok(parsed.data.memories.length >= 1);
  });

  it('lists get_relevant_context with the core context result, and answers it', async () => {
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'get_relevant_context')!;
    assert.deepEqual(
      Object.keys((listed.outputSchema as JsonSchema).properties!).sort(),
      Object.keys(contextOutputSchema.shape).sort(),
    );
    const session = await client.callTool({ name: 'init_session', arguments: {} });
    const sessionId = (session.structuredContent as { session_id: string }).session_id;
    const result = await client.callTool({
      name: 'get_relevant_context',
      arguments: { session_id: sessionId, query: 'orders PostgreSQL', token_budget: 400 },
    });
    const parsed = contextOutputSchema.safeParse(result.structuredContent);
    assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
    assert.ok(parsed.data.context_items.some((item) => item.source === 'long_term'));
  });
});
