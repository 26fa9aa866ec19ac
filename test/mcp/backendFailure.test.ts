import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { callError, callOk, connectClient } from '../support/testCore.ts';

/** A real store whose chosen methods fail on demand, like a backend that went away mid-call. */
function breakable(store: MemoryStore): { store: MemoryStore; broken: Set<string> } {
  const broken = new Set<string>();
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (broken.has(String(property))) return Promise.reject(new Error(`simulated outage in ${String(property)}`));
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, broken };
}

describe('backend failures over MCP', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-broken-'));
  const { store, broken } = breakable(new SqliteMemoryStore({ dataDir }));
  const core = new MemoryCore({ store });
  let client: Client;
  let close: () => Promise<void>;

  before(async () => {
    await core.open();
    ({ client, close } = await connectClient({ core }));
  });
  after(async () => {
    await close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports PROVIDER_ERROR with the cause, keeps serving, and lost nothing acknowledged', async () => {
    const kept = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: 'b',
      content: 'Acknowledged before the outage',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    // store_memory inserts with its duplicate check in the same write (insertUnlessDuplicate).
    broken.add('insertMemory').add('insertUnlessDuplicate');
    const failure = await callError(client, 'store_memory', {
      user_id: 'b',
      content: 'Written during the outage',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    assert.equal(failure.code, 'PROVIDER_ERROR');
    assert.match(failure.message, /simulated outage in insert(Memory|UnlessDuplicate)/);
    broken.add('searchLexical').add('searchLexicalWithStatistics');
    assert.equal(
      (await callError(client, 'recall_memories', { user_id: 'b', query: 'outage' })).code,
      'PROVIDER_ERROR',
    );
    broken.clear();
    const recalled = await callOk<{ memories: Array<{ memory_id: string }> }>(client, 'recall_memories', {
      user_id: 'b',
      query: 'acknowledged outage',
    });
    assert.deepEqual(
      recalled.memories.map((memory) => memory.memory_id),
      [kept.memory_id],
    );
  });
});
