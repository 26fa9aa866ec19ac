import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { runMemoryStoreContract } from '../contract/memoryStoreContract.ts';
import { runMemoryChangeContract } from '../contract/memoryChangeContract.ts';
import { startFireboltTestServer } from '../support/firebolt-server/server.ts';

const fastRetry = { retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 50 } };

/** A Firebolt store on a fresh test server; the server with VECTOR_SEARCH, or without it to exercise the exact fallback. */
function onTestServer(vectorSearch: boolean) {
  return async () => {
    const server = await startFireboltTestServer({ vectorSearch });
    const store = new FireboltStore({ kind: 'core', url: server.url, database: 'contract' }, fastRetry);
    await store.open();
    return {
      store,
      async cleanup() {
        await store.close();
        await server.close();
      },
    };
  };
}

runMemoryStoreContract('firebolt (test server, HNSW)', onTestServer(true));
runMemoryStoreContract('firebolt (test server, no VECTOR_SEARCH)', onTestServer(false));
runMemoryChangeContract('firebolt (test server)', onTestServer(true));
