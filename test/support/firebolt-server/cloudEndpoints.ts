import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from './server.ts';

/** The one service account and engine a Cloud-mode server knows. */
export interface CloudAccount {
  clientId: string;
  clientSecret: string;
  account: string;
  accountId: string;
  engine: string;
  /** Lifetime of issued tokens in seconds; default 3600. */
  tokenLifetimeSeconds?: number;
}

export type CloudRoute =
  { kind: 'response'; status: number; body: unknown } | { kind: 'unauthorized' } | { kind: 'query' };

const issuedTokens = new WeakMap<CloudAccount, Map<string, number>>();

/** Invalidates every token issued for the account, as an expiry or a key rotation would. */
export function revokeTokens(account: CloudAccount): void {
  issuedTokens.get(account)?.clear();
}

/**
 * The Cloud control plane: the OAuth token endpoint (form-encoded client credentials) and the
 * account engine-URL lookup; every other request must carry a bearer token this server issued.
 */
export function cloudRoute(request: RecordedRequest, account: CloudAccount, baseUrl: string): CloudRoute {
  const tokens = issuedTokens.get(account) ?? new Map<string, number>();
  issuedTokens.set(account, tokens);
  if (request.method === 'POST' && request.path === '/oauth/token') {
    const form = new URLSearchParams(request.body);
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== account.clientId ||
      form.get('client_secret') !== account.clientSecret
    ) {
      return { kind: 'response', status: 401, body: { error: 'access_denied', error_description: 'Unauthorized' } };
    }
    const token = randomBytes(24).toString('hex');
    const lifetime = account.tokenLifetimeSeconds ?? 3600;
    tokens.set(token, Date.now() + lifetime * 1000);
    return { kind: 'response', status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: lifetime } };
  }
  const authorization = request.headers.authorization;
  const token = typeof authorization === 'string' && authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
  const expiry = tokens.get(token);
  if (expiry === undefined || expiry < Date.now()) return { kind: 'unauthorized' };
  const engineUrl = /^\/web\/v3\/account\/([^/]+)\/engineUrl$/u.exec(request.path);
  if (request.method === 'GET' && engineUrl) {
    if (decodeURIComponent(engineUrl[1]) !== account.account) {
      return {
        kind: 'response',
        status: 404,
        body: { message: `account "${decodeURIComponent(engineUrl[1])}" not found` },
      };
    }
    return {
      kind: 'response',
      status: 200,
      body: { engineUrl: `${new URL(baseUrl).host}?account_id=${encodeURIComponent(account.accountId)}` },
    };
  }
  return { kind: 'query' };
}
