import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createResilientFireboltStore } from '../../src/stores/resilient/createResilientStore.ts';
import type { ResilientStore } from '../../src/stores/resilient/resilientStore.ts';
import { makeMemory } from '../contract/fixtures.ts';
import { startFireboltTestServer, type FireboltTestServer } from '../support/firebolt-server/server.ts';

function copiesOnDisk(dir: string, marker: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile() && readFileSync(path).toString('latin1').toLowerCase().includes(marker))
      found.push(path);
  }
  return found;
}

describe('erasure also empties the Firebolt replica and the outbox (issue 13.5)', () => {
  const serverDir = mkdtempSync(join(tmpdir(), 'fml-erase-server-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-erase-data-'));
  let server: FireboltTestServer;
  let store: ResilientStore;

  before(async () => {
    server = await startFireboltTestServer({ port: 0, dataDir: serverDir });
    store = createResilientFireboltStore({ kind: 'core', url: server.url, database: 'erase' }, dataDir, {
      client: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 } },
      replay: { baseDelayMs: 20, maxDelayMs: 200 },
    });
    await store.open();
  });
  after(async () => {
    await store.close();
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no copy of erased text in the replica or in queued writes while Firebolt is unreachable', async () => {
    await server.close();
    const erased = makeMemory('erased', { content: `Runbook: ${'pelicanquasar '.repeat(400)}` });
    await store.insertMemory(erased, null);
    await store.recordAccess([
      {
        access_id: 'acc_1',
        memory_id: erased.memory_id,
        session_id: null,
        user_id: 'erased',
        query_text: 'pelicanquasar runbook',
        similarity_score: 0.9,
        tool: 'recall_memories',
        accessed_at: new Date().toISOString(),
      },
    ]);
    const purged = makeMemory('kept', { content: `Secret plan ${'zebrafountain '.repeat(400)}` });
    const kept = makeMemory('kept', { content: 'The kept memory about marmaladeotter' });
    await store.insertMemory(purged, null);
    await store.insertMemory(kept, null);
    assert.ok(copiesOnDisk(dataDir, 'pelicanquasar').length > 0, 'queued and replicated before erasure');

    await store.deleteUser('erased');
    await store.hardDeleteMemory('kept', purged.memory_id);
    assert.deepEqual(copiesOnDisk(dataDir, 'pelicanquasar'), []);
    assert.deepEqual(copiesOnDisk(dataDir, 'zebrafountain'), []);
    assert.ok(copiesOnDisk(dataDir, 'marmaladeotter').length > 0, 'other queued writes stay');
  });
});
