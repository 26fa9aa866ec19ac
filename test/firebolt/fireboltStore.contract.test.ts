import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { runMemoryStoreContract } from '../contract/memoryStoreContract.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';

const fastRetry = { retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 50 } };

runMemoryStoreContract('firebolt (test server, HNSW)', async () => {
  const server = await startFireboltTestServer();
  const store = new FireboltStore({ kind: 'core', url: server.url, database: 'contract' }, fastRetry);
  await store.open();
  return {
    store,
    async cleanup() {
      await store.close();
      await server.close();
    },
  };
});

runMemoryStoreContract('firebolt (test server, no VECTOR_SEARCH)', async () => {
  const server = await startFireboltTestServer({ vectorSearch: false });
  const store = new FireboltStore({ kind: 'core', url: server.url, database: 'contract' }, fastRetry);
  await store.open();
  return {
    store,
    async cleanup() {
      await store.close();
      await server.close();
    },
  };
});
