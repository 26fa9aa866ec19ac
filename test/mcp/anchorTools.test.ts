import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

interface Anchored {
  memory_id: string;
  anchors?: Array<{
    path: string;
    symbol?: { name: string; kind: string };
    lines: { start: number; end: number };
    status: string;
  }>;
}

/** store_memory's anchor and recall_memories' file filter (entities file:<path>) over MCP, on a server with a workspace (fml serve --workspace). */
describe('anchor fields of the MCP tools', () => {
  let root: string;
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'fml-anchor-tools-'));
    mkdirSync(join(root, 'app'));
    writeFileSync(
      join(root, 'app/billing.py'),
      'def charge(order, card):\n    total = order.total()\n    return card.debit(total)\n\n\nclass Invoice:\n    pass\n',
    );
    test = await createTestCore({ workspace: nodeWorkspaceFiles(root) });
    ({ client, close } = await connectClient({ core: test.core, defaultUserId: 'dev' }));
  });
  after(async () => {
    await close();
    await test.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('stores an anchor an agent names, and recall by path returns it with its status', async () => {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      content: 'Charging debits the card once for the order total; never per line item.',
      memory_category: 'episodic',
      memory_subtype: 'decision',
      anchor: 'app/billing.py#charge',
    });
    const recalled = await callOk<{ memories: Anchored[] }>(client, 'recall_memories', {
      query: 'what do we know about this file',
      entities: ['file:app/billing.py'],
    });
    assert.equal(recalled.memories.length, 1);
    assert.equal(recalled.memories[0].memory_id, stored.memory_id);
    assert.deepEqual(recalled.memories[0].anchors, [
      {
        path: 'app/billing.py',
        symbol: { name: 'charge', kind: 'function' },
        lines: { start: 1, end: 3 },
        status: 'fresh',
      },
    ]);
  });

  it('refuses an anchor on a symbol the file does not declare, saying so', async () => {
    const error = await callError(client, 'store_memory', {
      content: 'Refunds go through the ledger.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchor: 'app/billing.py#refund',
    });
    assert.equal(error.code, 'INVALID_INPUT');
    assert.match(error.message, /no symbol "refund" declared in app\/billing\.py/);
    const malformed = await callError(client, 'store_memory', {
      content: 'Invoices are immutable.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchor: 'app/billing.py',
    });
    assert.match(malformed.message, /not "path#symbol" or "path:start-end"/);
  });

  it('takes a line range as path:start-end', async () => {
    await callOk(client, 'store_memory', {
      content: 'Invoice is a placeholder class until the ledger lands.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchor: 'app/billing.py:6-7',
    });
    const recalled = await callOk<{ memories: Anchored[] }>(client, 'recall_memories', {
      query: 'invoice placeholder',
      entities: ['file:app/billing.py'],
    });
    const invoice = recalled.memories.find((memory) => memory.anchors?.[0].lines.start === 6);
    assert.deepEqual(invoice?.anchors?.[0], { path: 'app/billing.py', lines: { start: 6, end: 7 }, status: 'fresh' });
  });
});
