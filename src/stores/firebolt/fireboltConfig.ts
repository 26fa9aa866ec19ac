import { MemoryError } from '../../core/domain/errors.ts';

/** Firebolt Core: plain HTTP, no authentication. */
export interface FireboltCoreConfig {
  kind: 'core';
  /** Default http://localhost:3473. */
  url: string;
  database: string;
}

/** Firebolt Cloud through a service account. */
export interface FireboltCloudConfig {
  kind: 'cloud';
  clientId: string;
  clientSecret: string;
  account: string;
  database: string;
  engine: string;
  /** Default https://api.app.firebolt.io; the OAuth host is derived from it (api. → id.). */
  apiEndpoint?: string;
}

export type FireboltConfig = FireboltCoreConfig | FireboltCloudConfig;

export const DEFAULT_CORE_URL = 'http://localhost:3473';
export const DEFAULT_API_ENDPOINT = 'https://api.app.firebolt.io';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/u;

/** Throws CONFIGURATION_ERROR naming the bad field; never echoes the secret. */
export function validateFireboltConfig(config: FireboltConfig): FireboltConfig {
  const fail = (field: string, why: string): never => {
    throw new MemoryError('CONFIGURATION_ERROR', `Firebolt ${config.kind} configuration: ${field} ${why}.`, {
      details: { field },
    });
  };
  if (!IDENTIFIER.test(config.database)) fail('database', 'must be a plain identifier (letters, digits, underscore)');
  if (config.kind === 'core') {
    let url: URL | undefined;
    try {
      url = new URL(config.url);
    } catch (error) {
      throw new MemoryError('CONFIGURATION_ERROR', `Firebolt core configuration: url "${config.url}" is not a URL.`, {
        details: { field: 'url' },
        cause: error,
      });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('url', 'must be http:// or https://');
    return config;
  }
  for (const field of ['clientId', 'clientSecret', 'account', 'engine'] as const) {
    if (typeof config[field] !== 'string' || config[field].trim() === '') fail(field, 'is required');
  }
  return config;
}
