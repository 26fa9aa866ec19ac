import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ADMIN_TOOLS, AGENT_TOOLS } from '../../src/mcp/toolCatalog.ts';
import { connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/mcp.md, "The admin group": the admin tools are offered only when opted in. Offered means
 * callable, not only listed: without the opt-in every admin tool of the catalog is an unknown tool
 * (-32602) and does nothing, even when a client that knows its name calls it; with it, each is
 * listed. The agent tools are offered either way.
 */
describe('every admin tool is offered, listed and callable, only when opted in', () => {
  let test: TestCore;
  let plain: Awaited<ReturnType<typeof connectClient>>;
  let admin: Awaited<ReturnType<typeof connectClient>>;
  before(async () => {
    test = await createTestCore();
    await test.core.storeMemory({
      user_id: 'alice',
      content: 'The admin group is opt-in.',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    plain = await connectClient({ core: test.core });
    admin = await connectClient({ core: test.core, adminTools: true });
  });
  after(async () => {
    await plain.close();
    await admin.close();
    await test.cleanup();
  });

  it('lists the agent tools without the opt-in, and the admin tools only with it', async () => {
    const listed = (await plain.client.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(listed.sort(), AGENT_TOOLS.map((tool) => tool.name).sort());
    const opted = (await admin.client.listTools()).tools.map((tool) => tool.name);
    for (const tool of ADMIN_TOOLS) assert.ok(opted.includes(tool.name), `${tool.name} is listed with the opt-in`);
  });

  for (const tool of ADMIN_TOOLS) {
    it(`${tool.name} called without the opt-in is an unknown tool and changes nothing`, async () => {
      const before = (await test.core.exportMemories('alice')).memories;
      await assert.rejects(
        plain.client.callTool({ name: tool.name, arguments: { user_id: 'alice' } }),
        (error: unknown) => error instanceof McpError && error.code === -32602 && /Unknown tool/.test(error.message),
      );
      assert.deepEqual((await test.core.exportMemories('alice')).memories, before);
    });
  }
});
