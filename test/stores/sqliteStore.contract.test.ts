import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { runMemoryStoreContract } from '../contract/memoryStoreContract.ts';
import { runMemoryChangeContract } from '../contract/memoryChangeContract.ts';

runMemoryStoreContract('sqlite', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'fml-sqlite-contract-'));
  const store = new SqliteMemoryStore({ dataDir });
  await store.open();
  return {
    store,
    async cleanup() {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

runMemoryChangeContract(
  'sqlite',
  async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-sqlite-changes-'));
    const store = new SqliteMemoryStore({ dataDir });
    await store.open();
    return {
      store,
      async cleanup() {
        await store.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
  200,
);
