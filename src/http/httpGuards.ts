import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { HttpRejection } from './httpErrors.ts';

/** What a guard refuses with: a Host/Origin the server does not answer, or a missing or wrong token. */
export interface GuardRejection extends HttpRejection {
  code: 'UNAUTHORIZED' | 'FORBIDDEN';
}

/**
 * DNS-rebinding protection: a page on another origin can make a browser send requests to
 * 127.0.0.1, but it cannot make the Host header say 127.0.0.1 while the name resolved elsewhere,
 * and the browser always reports its true Origin.
 */
export function checkHostAndOrigin(request: IncomingMessage, port: number): GuardRejection | null {
  const allowedHosts = allowedHostsOf(port);
  const host = request.headers.host ?? '';
  if (!allowedHosts.hosts.has(host)) {
    return {
      status: 403,
      code: 'FORBIDDEN',
      message: `Host "${host}" is not allowed; connect to http://127.0.0.1:${port}.`,
    };
  }
  const origin = request.headers.origin;
  // A browser sends the serialised origin, scheme included: `http://127.0.0.1:7077` and nothing like it.
  if (origin !== undefined && origin !== 'null' && !allowedHosts.origins.has(origin)) {
    return { status: 403, code: 'FORBIDDEN', message: `Origin "${origin}" is not allowed.` };
  }
  if (origin === 'null') return { status: 403, code: 'FORBIDDEN', message: 'Opaque origins are not allowed.' };
  return null;
}

/** The Host and Origin values a server on `port` answers; built once per port, not on every request. */
const ALLOWED_BY_PORT = new Map<number, { hosts: ReadonlySet<string>; origins: ReadonlySet<string> }>();

function allowedHostsOf(port: number): { hosts: ReadonlySet<string>; origins: ReadonlySet<string> } {
  let allowed = ALLOWED_BY_PORT.get(port);
  if (allowed === undefined) {
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
    allowed = { hosts: new Set(hosts), origins: new Set(hosts.map((host) => `http://${host}`)) };
    ALLOWED_BY_PORT.set(port, allowed);
  }
  return allowed;
}

/** Bearer token check in constant time; the token never appears in a response or a log. */
export function checkBearer(
  request: IncomingMessage,
  token: string,
  queryToken?: string | null,
): GuardRejection | null {
  const header = request.headers.authorization ?? '';
  const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : (queryToken ?? '');
  const expected = Buffer.from(token);
  const given = Buffer.from(presented);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      status: 401,
      code: 'UNAUTHORIZED',
      message:
        'Missing or wrong bearer token: send "Authorization: Bearer <token>" with the token the server printed at start.',
    };
  }
  return null;
}
