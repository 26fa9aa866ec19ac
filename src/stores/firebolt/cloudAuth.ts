import { MemoryError } from '../../core/domain/errors.ts';
import type { FireboltCloudConfig } from './fireboltConfig.ts';
import { DEFAULT_API_ENDPOINT } from './fireboltConfig.ts';
import { errorFromResponse, errorFromTransport, TransportError } from './fireboltErrors.ts';
import type { HttpTransport } from './httpTransport.ts';

const AUDIENCE = 'https://api.firebolt.io';

interface CachedToken {
  value: string;
  /** Refreshed at half the lifetime, as the official SDK does. */
  refreshAt: number;
}

/** `api.app.firebolt.io` → `https://api.app.firebolt.io`; an explicit scheme is kept (tests use http). */
export function apiBase(config: FireboltCloudConfig): URL {
  const raw = config.apiEndpoint ?? DEFAULT_API_ENDPOINT;
  return new URL(/^https?:\/\//u.test(raw) ? raw : `https://${raw}`);
}

/** The OAuth host is the API host with its leading `api.` replaced by `id.`, else the API host itself. */
export function tokenUrl(config: FireboltCloudConfig): URL {
  const base = apiBase(config);
  const host = base.hostname.startsWith('api.') ? `id.${base.hostname.slice(4)}` : base.hostname;
  return new URL(`${base.protocol}//${host}${base.port ? `:${base.port}` : ''}/oauth/token`);
}

/**
 * Service-account access tokens for Firebolt Cloud. The secret goes only into the form body
 * of the token request; it is never part of a URL, message or error detail.
 */
export class CloudTokenSource {
  readonly #config: FireboltCloudConfig;
  readonly #transport: HttpTransport;
  readonly #timeoutMs: number;
  #token: CachedToken | null = null;

  constructor(config: FireboltCloudConfig, transport: HttpTransport, timeoutMs: number) {
    this.#config = config;
    this.#transport = transport;
    this.#timeoutMs = timeoutMs;
  }

  invalidate(): void {
    this.#token = null;
  }

  async token(): Promise<string> {
    if (this.#token && Date.now() < this.#token.refreshAt) return this.#token.value;
    const body = new URLSearchParams({
      client_id: this.#config.clientId,
      client_secret: this.#config.clientSecret,
      grant_type: 'client_credentials',
      audience: AUDIENCE,
    }).toString();
    const response = await this.#transport
      .send({
        method: 'POST',
        url: tokenUrl(this.#config),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
        timeoutMs: this.#timeoutMs,
      })
      .catch((error: unknown) => {
        throw error instanceof TransportError ? errorFromTransport(error, 'authentication') : error;
      });
    if (response.status !== 200) {
      const error = errorFromResponse(response, 'authentication');
      if (response.status === 400 || response.status === 401 || response.status === 403) {
        throw new MemoryError(
          'UNAUTHORIZED',
          `Firebolt rejected the service account credentials (HTTP ${response.status}). Check clientId and clientSecret.`,
          {
            operation: 'authentication',
            details: error.details,
          },
        );
      }
      throw error;
    }
    const parsed = JSON.parse(response.body) as { access_token?: string; expires_in?: number };
    if (!parsed.access_token)
      throw new MemoryError('PROVIDER_ERROR', 'Firebolt token response has no access_token.', {
        operation: 'authentication',
      });
    const lifetimeMs = (parsed.expires_in ?? 3600) * 1000;
    this.#token = { value: parsed.access_token, refreshAt: Date.now() + lifetimeMs / 2 };
    return parsed.access_token;
  }
}

/**
 * The account's system-engine URL: `GET /web/v3/account/{account}/engineUrl` gives a host
 * (maybe with ?params); queries go to `/query` on it with those params.
 */
export async function resolveSystemEngine(
  config: FireboltCloudConfig,
  transport: HttpTransport,
  token: string,
  timeoutMs: number,
): Promise<{ url: URL; params: Record<string, string> }> {
  const base = apiBase(config);
  const url = new URL(`/web/v3/account/${encodeURIComponent(config.account)}/engineUrl`, base);
  const response = await transport
    .send({ method: 'GET', url, headers: { Authorization: `Bearer ${token}` }, timeoutMs })
    .catch((error: unknown) => {
      throw error instanceof TransportError ? errorFromTransport(error, 'engine URL lookup') : error;
    });
  if (response.status === 404) {
    throw new MemoryError('CONFIGURATION_ERROR', `Firebolt account "${config.account}" was not found.`, {
      details: { field: 'account' },
    });
  }
  if (response.status !== 200) throw errorFromResponse(response, 'engine URL lookup');
  const { engineUrl } = JSON.parse(response.body) as { engineUrl?: string };
  if (!engineUrl) throw new MemoryError('PROVIDER_ERROR', 'Firebolt engine URL response has no engineUrl.');
  const engine = new URL(`${base.protocol}//${engineUrl}`);
  return { url: new URL('/query', engine), params: Object.fromEntries(engine.searchParams) };
}
