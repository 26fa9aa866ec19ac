import { MemoryError } from '../core/domain/errors.ts';
import { DEFAULT_CORE_URL } from '../stores/firebolt/fireboltConfig.ts';
import type { BackendConfig, BackendKind } from './runtimeConfig.ts';

/** The database name when none is given; the same default as the extension's fireboltMemory.firebolt.database setting. */
export const DEFAULT_FIREBOLT_DATABASE = 'fml_memory';

const KINDS: readonly BackendKind[] = ['sqlite', 'firebolt-core', 'firebolt-cloud'];

/**
 * Backend settings as plain values, whatever their source (extension settings plus its secret
 * storage, or the environment). Blank strings count as absent.
 */
export interface BackendSettings {
  /** 'sqlite' (alias 'embedded'), 'firebolt-core' or 'firebolt-cloud'; absent means sqlite. */
  backend?: string;
  /** The embedded store's directory (also where a Firebolt backend keeps its local replica and outbox). */
  dataDir: string;
  coreUrl?: string;
  database?: string;
  clientId?: string;
  clientSecret?: string;
  account?: string;
  engine?: string;
  apiEndpoint?: string;
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The one mapping from settings to a BackendConfig, shared by the CLI and the extension.
 * Missing pieces are a CONFIGURATION_ERROR naming the setting (and for the CLI its variable);
 * the secret is never part of a message.
 */
export function backendConfigFromSettings(settings: BackendSettings): BackendConfig {
  const requested = present(settings.backend)?.toLowerCase() ?? 'sqlite';
  const kind = (requested === 'embedded' ? 'sqlite' : requested) as BackendKind;
  if (!KINDS.includes(kind)) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `Backend must be sqlite, firebolt-core or firebolt-cloud; got "${requested}".`,
      { details: { field: 'backend' } },
    );
  }
  const database = present(settings.database) ?? DEFAULT_FIREBOLT_DATABASE;
  switch (kind) {
    case 'sqlite':
      return { kind, dataDir: settings.dataDir };
    case 'firebolt-core':
      return { kind, url: present(settings.coreUrl) ?? DEFAULT_CORE_URL, database };
    case 'firebolt-cloud': {
      const required = {
        clientId: 'FIREBOLT_CLIENT_ID',
        clientSecret: 'FIREBOLT_CLIENT_SECRET',
        account: 'FIREBOLT_ACCOUNT',
        engine: 'FIREBOLT_ENGINE',
      } as const;
      const missing = (Object.keys(required) as Array<keyof typeof required>).filter(
        (field) => present(settings[field]) === undefined,
      );
      if (missing.length > 0) {
        throw new MemoryError(
          'CONFIGURATION_ERROR',
          `The firebolt-cloud backend needs ${missing.map((field) => `${field} (${required[field]})`).join(', ')}.`,
          { details: { missing } },
        );
      }
      const apiEndpoint = present(settings.apiEndpoint);
      return {
        kind,
        clientId: present(settings.clientId) as string,
        clientSecret: settings.clientSecret as string,
        account: present(settings.account) as string,
        engine: present(settings.engine) as string,
        database,
        ...(apiEndpoint ? { apiEndpoint } : {}),
      };
    }
  }
}

/**
 * The CLI's backend: `--backend` wins over FML_BACKEND; the rest comes from FIREBOLT_* variables.
 * FIREBOLT_CLIENT_SECRET is read from the environment only, never from a flag.
 */
export function backendConfigFromEnv(
  dataDir: string,
  backendFlag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): BackendConfig {
  return backendConfigFromSettings({
    backend: backendFlag ?? env.FML_BACKEND,
    dataDir,
    coreUrl: env.FIREBOLT_CORE_URL,
    database: env.FIREBOLT_DATABASE,
    clientId: env.FIREBOLT_CLIENT_ID,
    clientSecret: env.FIREBOLT_CLIENT_SECRET,
    account: env.FIREBOLT_ACCOUNT,
    engine: env.FIREBOLT_ENGINE,
    apiEndpoint: env.FIREBOLT_API_ENDPOINT,
  });
}

/** A one-line description safe to print: no secret, no client id. */
export function describeBackend(backend: BackendConfig): string {
  switch (backend.kind) {
    case 'sqlite':
      return `sqlite in ${backend.dataDir}`;
    case 'firebolt-core':
      return `firebolt-core at ${backend.url}, database ${backend.database}`;
    case 'firebolt-cloud':
      return `firebolt-cloud account ${backend.account}, engine ${backend.engine}, database ${backend.database}`;
  }
}
