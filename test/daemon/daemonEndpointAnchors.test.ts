import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AnchorChecker } from '../../src/core/anchors/anchorChecker.ts';
import { anchorsOf } from '../../src/core/anchors/anchorModel.ts';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { daemonDataDirs, openWindow } from './daemonHarness.ts';

const USER = 'anchor-user';
const BILLING =
  'export function charge(order: { total: number }, card: { debit(amount: number): void }): void {\n  card.debit(order.total);\n}\n';

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: Array<{ type: string; text?: string }>;
}

/** An agent of one window: an MCP client on the endpoint the daemon opened for that window. */
async function agentOn(endpoint: {
  mcpUrl: string;
  token: string;
}): Promise<{ call(name: string, args: Record<string, unknown>): Promise<ToolResult>; close(): Promise<void> }> {
  const client = new Client({ name: 'daemon-anchor-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${endpoint.token}` } },
    }),
  );
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

/** Agents' anchors in VS Code: the shared memory process resolves them in each window's workspace (issue #18). */
describe('background memory process: MCP endpoints per window workspace', () => {
  const dataDirs = daemonDataDirs('fml-daemon-');
  const fresh = (prefix: string): string => dataDirs.fresh(prefix);
  after(() => dataDirs.removeAll());

  it(
    'stores an agent’s anchor resolved in the window’s folder; a window without one is refused',
    { timeout: 60_000 },
    async () => {
      const dataDir = fresh('fml-daemon-anchors-');
      const workspace = fresh('fml-daemon-ws-');
      mkdirSync(join(workspace, 'src'));
      writeFileSync(join(workspace, 'src', 'billing.ts'), BILLING);
      const window = await openWindow(dataDir, { userId: USER });
      const agents: Array<Awaited<ReturnType<typeof agentOn>>> = [];
      try {
        const endpoint = await window.connection.endpoint(USER, false, workspace);
        const agent = await agentOn(endpoint);
        agents.push(agent);
        const stored = await agent.call('store_memory', {
          content: 'charge debits the card once for the order total, never per line item',
          memory_category: 'episodic',
          memory_subtype: 'decision',
          anchor: 'src/billing.ts#charge',
        });
        assert.equal(stored.isError, undefined, JSON.stringify(stored.content));
        const memoryId = stored.structuredContent?.memory_id as string;

        // What the store holds: the anchor resolved against the window's file, fingerprint and all.
        const record = await window.core.getMemory(USER, memoryId);
        const [anchor, ...others] = anchorsOf(record?.metadata ?? {});
        assert.equal(others.length, 0);
        assert.deepEqual(
          [anchor?.path, anchor?.symbol, anchor?.lines],
          ['src/billing.ts', { name: 'charge', kind: 'function' }, { start: 1, end: 3 }],
        );
        const expected = await new AnchorChecker(nodeWorkspaceFiles(workspace)).create({
          path: 'src/billing.ts',
          symbol: 'charge',
        });
        assert.equal(anchor?.fingerprint, expected.fingerprint, 'the fingerprint of the window’s code');
        assert.ok(record?.entities.includes('file:src/billing.ts'), 'found by the file filter');

        // A symbol the window's file does not declare is refused, naming it.
        const missing = await agent.call('store_memory', {
          content: 'refund reverses a charge',
          memory_category: 'semantic',
          memory_subtype: 'project',
          anchor: 'src/billing.ts#refund',
        });
        assert.equal(missing.isError, true);
        assert.match(JSON.stringify(missing.content), /INVALID_INPUT[\s\S]*refund/);

        // One endpoint per (user, workspace): the same folder finds it again, no folder gets another, which refuses anchors.
        assert.equal((await window.connection.endpoint(USER, false, workspace)).mcpUrl, endpoint.mcpUrl);
        const bare = await window.connection.endpoint(USER, false, null);
        assert.notEqual(bare.mcpUrl, endpoint.mcpUrl);
        const bareAgent = await agentOn(bare);
        agents.push(bareAgent);
        const refused = await bareAgent.call('store_memory', {
          content: 'charge is idempotent per order',
          memory_category: 'semantic',
          memory_subtype: 'project',
          anchor: 'src/billing.ts#charge',
        });
        assert.equal(refused.isError, true);
        assert.match(JSON.stringify(refused.content), /CONFIGURATION_ERROR/);
      } finally {
        for (const agent of agents) await agent.close();
        window.connection.close();
      }
    },
  );

  it('refuses a workspace that is not an absolute folder', { timeout: 60_000 }, async () => {
    const dataDir = fresh('fml-daemon-anchors-');
    const window = await openWindow(dataDir, { userId: USER });
    try {
      for (const bad of ['relative/dir', join(dataDir, 'no-such-folder')]) {
        await assert.rejects(
          window.connection.endpoint(USER, false, bad),
          (error: unknown) => MemoryError.is(error, 'INVALID_INPUT') && error.message.includes(bad),
        );
      }
    } finally {
      window.connection.close();
    }
  });
});
