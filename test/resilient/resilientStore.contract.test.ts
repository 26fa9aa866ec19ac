import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createResilientFireboltStore } from '../../src/stores/resilient/createResilientStore.ts';
import { runMemoryStoreContract } from '../contract/memoryStoreContract.ts';
import { runMemoryChangeContract } from '../contract/memoryChangeContract.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';

async function resilientOnTestServer() {
  const server = await startFireboltTestServer();
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-resilient-contract-'));
  const store = createResilientFireboltStore({ kind: 'core', url: server.url, database: 'contract' }, dataDir, {
    client: { retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 } },
  });
  await store.open();
  return {
    store,
    async cleanup() {
      await store.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

runMemoryStoreContract('resilient (firebolt test server + local replica)', resilientOnTestServer);
runMemoryChangeContract('resilient (firebolt test server + local replica)', resilientOnTestServer);
