import { endpointFromHeader } from './engineEndpoint.ts';
import type { HttpResponse } from './httpTransport.ts';

/** Firebolt's session state, carried in response headers and sent back in the query string. */

/** Session keys that survive Firebolt-Reset-Session. */
const SESSION_CORE_KEYS = new Set(['database', 'account_id', 'output_format', 'engine']);
const TRANSACTION_KEYS = new Set(['transaction_id', 'transaction_sequence_id']);

/**
 * Applies a response's session headers: Firebolt-Reset-Session, -Update-Parameters,
 * -Remove-Parameters (transaction keys go to `transaction`, the rest to `session`) and
 * -Update-Endpoint. Returns the endpoint the next request goes to.
 */
export function applySessionHeaders(
  response: HttpResponse,
  session: Map<string, string>,
  transaction: Map<string, string> | null,
  endpoint: URL,
): URL {
  const header = (name: string): string | undefined => {
    const value = response.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(',') : value;
  };
  if (header('Firebolt-Reset-Session') !== undefined) {
    for (const key of [...session.keys()]) if (!SESSION_CORE_KEYS.has(key)) session.delete(key);
  }
  const updates = header('Firebolt-Update-Parameters');
  for (const pair of updates ? updates.split(',') : []) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (TRANSACTION_KEYS.has(key)) transaction?.set(key, value);
    else session.set(key, value);
  }
  applyRemovals(response, session, transaction);
  const updated = header('Firebolt-Update-Endpoint');
  if (!updated) return endpoint;
  const next = endpointFromHeader(updated, endpoint);
  for (const [key, value] of next.searchParams) session.set(key, value);
  next.search = '';
  return next;
}

export function applyRemovals(
  response: HttpResponse,
  session: Map<string, string>,
  transaction: Map<string, string> | null,
): void {
  const value = response.headers['firebolt-remove-parameters'];
  const removals = Array.isArray(value) ? value.join(',') : value;
  for (const key of removals ? removals.split(',').map((name) => name.trim()) : []) {
    if (TRANSACTION_KEYS.has(key)) transaction?.delete(key);
    else session.delete(key);
  }
}
