import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import {
  backendConfigFromEnv,
  backendConfigFromSettings,
  describeBackend,
} from '../../src/runtime/backendSelection.ts';
import { createStore } from '../../src/runtime/createRuntime.ts';
import { ResilientStore } from '../../src/stores/resilient/resilientStore.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';

const cloudEnv = {
  FML_BACKEND: 'firebolt-cloud',
  FIREBOLT_CLIENT_ID: 'id-1',
  FIREBOLT_CLIENT_SECRET: 's3cret-value',
  FIREBOLT_ACCOUNT: 'acme',
  FIREBOLT_ENGINE: 'eng',
};

describe('backend selection', () => {
  it('defaults to sqlite in the data directory', () => {
    assert.deepEqual(backendConfigFromEnv('/d', undefined, {}), { kind: 'sqlite', dataDir: '/d' });
    assert.deepEqual(backendConfigFromSettings({ backend: 'embedded', dataDir: '/d' }), {
      kind: 'sqlite',
      dataDir: '/d',
    });
  });

  it('builds firebolt-core with the default URL and database, the flag winning over FML_BACKEND', () => {
    assert.deepEqual(backendConfigFromEnv('/d', 'firebolt-core', { FML_BACKEND: 'sqlite' }), {
      kind: 'firebolt-core',
      url: 'http://localhost:3473',
      database: 'fml_memory',
    });
    assert.deepEqual(
      backendConfigFromEnv('/d', undefined, {
        FML_BACKEND: 'firebolt-core',
        FIREBOLT_CORE_URL: 'http://core:1',
        FIREBOLT_DATABASE: 'mem',
      }),
      {
        kind: 'firebolt-core',
        url: 'http://core:1',
        database: 'mem',
      },
    );
  });

  it('builds firebolt-cloud from the environment, apiEndpoint optional', () => {
    assert.deepEqual(
      backendConfigFromEnv('/d', undefined, { ...cloudEnv, FIREBOLT_API_ENDPOINT: 'https://api.dev.firebolt.io' }),
      {
        kind: 'firebolt-cloud',
        clientId: 'id-1',
        clientSecret: 's3cret-value',
        account: 'acme',
        engine: 'eng',
        database: 'fml_memory',
        apiEndpoint: 'https://api.dev.firebolt.io',
      },
    );
  });

  it('names every missing cloud piece and never echoes the secret', () => {
    const error = (() => {
      try {
        backendConfigFromEnv('/d', undefined, {
          FML_BACKEND: 'firebolt-cloud',
          FIREBOLT_CLIENT_SECRET: 's3cret-value',
        });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    assert.ok(MemoryError.is(error));
    assert.equal(error.code, 'CONFIGURATION_ERROR');
    for (const name of ['FIREBOLT_CLIENT_ID', 'FIREBOLT_ACCOUNT', 'FIREBOLT_ENGINE'])
      assert.match(error.message, new RegExp(name));
    assert.doesNotMatch(error.message, /FIREBOLT_CLIENT_SECRET|s3cret/);
    const described = describeBackend(backendConfigFromEnv('/d', undefined, cloudEnv));
    assert.doesNotMatch(described, /s3cret|id-1/);
  });

  it('rejects an unknown backend name', () => {
    assert.throws(
      () => backendConfigFromEnv('/d', 'postgres', {}),
      (error: unknown) => MemoryError.is(error) && error.code === 'CONFIGURATION_ERROR',
    );
  });

  it('creates the bare Firebolt store, or the resilient one when given a replica directory', () => {
    const backend = backendConfigFromEnv('/d', 'firebolt-core', {});
    assert.ok(createStore(backend) instanceof FireboltStore);
    const resilient = createStore(backend, { localReplicaDir: '/d' });
    assert.ok(resilient instanceof ResilientStore);
    assert.equal(resilient.kind, 'firebolt-core');
  });
});
