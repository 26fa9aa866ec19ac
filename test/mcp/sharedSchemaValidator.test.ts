import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryObjects } from 'node:v8';
import { createMcpServer, sharedJsonSchemaValidator } from '../../src/mcp/createMcpServer.ts';
import { AjvJsonSchemaValidator, type Server } from '../../src/mcp/mcpSdk.ts';
import { connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

// Each HTTP session has its own MCP server; left to the SDK's default, each built its own Ajv and
// meta-schemas (issue 31: 2,000 sessions held 2,000 of them, about 38 KB each).
describe('the JSON Schema validator of MCP servers', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(async () => {
    await test.cleanup();
  });

  it('is one per process, however many servers (sessions) are made', () => {
    const made = queryObjects(AjvJsonSchemaValidator, { format: 'count' });
    const servers: Server[] = [];
    for (let index = 0; index < 12; index++) servers.push(createMcpServer({ core: test.core }));
    const now = queryObjects(AjvJsonSchemaValidator, { format: 'count' });
    assert.ok(now - made <= 1, `${now - made} validators for ${servers.length} servers`);
    assert.equal(sharedJsonSchemaValidator(), sharedJsonSchemaValidator());
  });

  it('still validates: a schema compiled by the shared one accepts and refuses as Ajv does', () => {
    const check = sharedJsonSchemaValidator().getValidator({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
    });
    assert.equal(check({ email: 'ana@example.com' }).valid, true);
    assert.equal(check({ email: 'not an address' }).valid, false);
    assert.equal(check({}).valid, false);
  });

  it('sessions sharing it still answer their own calls', async () => {
    const sessions = await Promise.all([0, 1].map(() => connectClient({ core: test.core, defaultUserId: 'ana' })));
    try {
      for (const { client } of sessions) {
        const listed = await client.listTools();
        assert.ok(listed.tools.some((tool) => tool.name === 'store_memory'));
      }
    } finally {
      for (const { close } of sessions) await close();
    }
  });
});
