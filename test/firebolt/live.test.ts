import { test } from 'node:test';
import type { FireboltConfig } from '../../src/stores/firebolt/fireboltConfig.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { runMemoryStoreContract } from '../contract/memoryStoreContract.ts';

/**
 * The store contract against a real Firebolt, when one is configured:
 *   FIREBOLT_CORE_URL=http://localhost:3473 [FIREBOLT_DATABASE=fml_contract]
 * or Cloud:
 *   FIREBOLT_CLIENT_ID, FIREBOLT_CLIENT_SECRET, FIREBOLT_ACCOUNT, FIREBOLT_ENGINE,
 *   [FIREBOLT_DATABASE=fml_contract] [FIREBOLT_API_ENDPOINT]
 * Rows are written under random user ids in that database and left there.
 */
function liveConfig(env: NodeJS.ProcessEnv): FireboltConfig | string {
  const database = env.FIREBOLT_DATABASE ?? 'fml_contract';
  if (env.FIREBOLT_CORE_URL) return { kind: 'core', url: env.FIREBOLT_CORE_URL, database };
  const { FIREBOLT_CLIENT_ID, FIREBOLT_CLIENT_SECRET, FIREBOLT_ACCOUNT, FIREBOLT_ENGINE } = env;
  if (FIREBOLT_CLIENT_ID && FIREBOLT_CLIENT_SECRET && FIREBOLT_ACCOUNT && FIREBOLT_ENGINE) {
    return {
      kind: 'cloud',
      clientId: FIREBOLT_CLIENT_ID,
      clientSecret: FIREBOLT_CLIENT_SECRET,
      account: FIREBOLT_ACCOUNT,
      engine: FIREBOLT_ENGINE,
      database,
      ...(env.FIREBOLT_API_ENDPOINT ? { apiEndpoint: env.FIREBOLT_API_ENDPOINT } : {}),
    };
  }
  return 'no live Firebolt configured: set FIREBOLT_CORE_URL, or FIREBOLT_CLIENT_ID, FIREBOLT_CLIENT_SECRET, FIREBOLT_ACCOUNT and FIREBOLT_ENGINE';
}

const config = liveConfig(process.env);
if (typeof config === 'string') {
  test('MemoryStore contract against a live Firebolt', (t) => {
    t.skip(config);
  });
} else {
  runMemoryStoreContract(`firebolt live (${config.kind})`, async () => {
    const store = new FireboltStore(config);
    await store.open();
    return { store, cleanup: () => store.close() };
  });
}
