import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';
import { sendRouteError } from '../http/httpErrors.ts';
import { checkBearer } from '../http/httpGuards.ts';
import type { HostMessage } from '../shared/panelProtocol.ts';
import { PANEL_ASSET_FILES, type PanelAssetName } from './panelAssets.ts';
import type { PanelController } from './panelController.ts';
import { renderPanelHtml } from './panelHtml.ts';
import { PanelSessions } from './panelSessions.ts';

export interface PanelRoutesOptions {
  controller: PanelController;
  token: string;
  /** Directory holding the built panel (dist/webview). */
  assetsDir: string;
  /** SSE keep-alive interval; proxies and browsers drop idle streams. */
  heartbeatMs?: number;
  /** Panel sign-ins; a fresh store by default. */
  sessions?: PanelSessions;
}

export interface PanelRoutes {
  /** Plug into startHttpServer's extraRoutes. */
  handle(request: IncomingMessage, response: ServerResponse, body: () => Promise<unknown>): Promise<boolean>;
  /** Ends open event streams so the server can close. */
  dispose(): void;
}

const ASSET_PREFIX = '/panel/';

/**
 * The panel over HTTP: the page at `/`, its assets, POST /api/panel for requests and an SSE
 * stream at /api/panel/events for notifications. startHttpServer has already checked Host and
 * Origin; the token is checked here on every route. The page is opened once with ?token=…,
 * which is swapped for an HttpOnly SameSite=Strict cookie holding a panel session id (never the
 * token itself, see PanelSessions) and removed from the address bar, so the token never sits in
 * page script, history or the cookie jar; API clients may send the bearer header instead.
 * Requests that change memories must be JSON and, when they rely on the cookie, same-origin.
 */
export function createPanelRoutes(options: PanelRoutesOptions): PanelRoutes {
  const streams = new Set<ServerResponse>();
  const sessions = options.sessions ?? new PanelSessions();
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: () => Promise<unknown>,
  ): Promise<boolean> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const cookieName = `fml_panel_${request.headers.host?.split(':').pop() ?? ''}`.replace(/[^\w]/g, '_');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (request.method !== 'GET') return methodNotAllowed(response, 'GET');
      const queryToken = url.searchParams.get('token');
      if (queryToken !== null) {
        if (checkBearer(request, options.token, queryToken)) return unauthorizedPage(response);
        response.writeHead(303, {
          Location: '/',
          'Set-Cookie': `${cookieName}=${sessions.create()}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${sessions.ttlSeconds}`,
          'Cache-Control': 'no-store',
        });
        response.end();
        return true;
      }
      if (!authorised(request, cookieName)) return unauthorizedPage(response);
      servePage(response);
      return true;
    }
    if (url.pathname === '/favicon.ico') {
      // Browsers ask for it unprompted; answering keeps their consoles free of a 404 per load.
      response.writeHead(204);
      response.end();
      return true;
    }
    if (url.pathname.startsWith(ASSET_PREFIX)) {
      if (!authorised(request, cookieName)) return unauthorizedJson(response);
      await serveAsset(url.pathname.slice(ASSET_PREFIX.length), response);
      return true;
    }
    if (url.pathname === '/api/panel') {
      if (request.method !== 'POST') return methodNotAllowed(response, 'POST');
      if (!authorised(request, cookieName)) return unauthorizedJson(response);
      // A form or a no-cors fetch from another page can only send text/plain, urlencoded or
      // multipart bodies without a preflight; JSON needs one, which a foreign origin cannot pass.
      if (!isJson(request)) {
        sendRouteError(response, 415, {
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Send the panel request as Content-Type: application/json.',
        });
        return true;
      }
      if (!hasBearer(request) && !isSameOrigin(request)) {
        sendRouteError(response, 403, {
          status: 403,
          code: 'FORBIDDEN',
          message: 'Panel changes are accepted from the panel page only (same origin).',
        });
        return true;
      }
      let message: unknown;
      try {
        message = await body();
      } catch (error) {
        // The body reader fails with CONTENT_TOO_LONG or INVALID_INPUT only; anything else is a server fault.
        if (!MemoryError.is(error)) throw error;
        sendRouteError(response, MemoryError.is(error, 'CONTENT_TOO_LONG') ? 413 : 400, error);
        return true;
      }
      sendJson(response, 200, await options.controller.handle(message));
      return true;
    }
    if (url.pathname === '/api/panel/events') {
      if (request.method !== 'GET') return methodNotAllowed(response, 'GET');
      if (!authorised(request, cookieName)) return unauthorizedJson(response);
      openEventStream(request, response);
      return true;
    }
    return false;
  }

  function authorised(request: IncomingMessage, cookieName: string): boolean {
    if (hasBearer(request)) return checkBearer(request, options.token) === null;
    return sessions.isValid(readCookie(request, cookieName));
  }

  function servePage(response: ServerResponse): void {
    const nonce = randomBytes(16).toString('base64');
    const html = renderPanelHtml({
      nonce,
      cspSource: "'self'",
      connectSource: "'self'",
      assets: {
        script: `${ASSET_PREFIX}main.js`,
        style: `${ASSET_PREFIX}panel.css`,
        codicons: `${ASSET_PREFIX}codicons/codicon.css`,
        browserTheme: `${ASSET_PREFIX}browserTheme.css`,
      },
    });
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    response.end(html);
  }

  async function serveAsset(name: string, response: ServerResponse): Promise<void> {
    if (!Object.hasOwn(PANEL_ASSET_FILES, name)) {
      sendRouteError(response, 404, {
        status: 404,
        code: 'NOT_FOUND',
        message: `No panel asset named ${JSON.stringify(name)}.`,
      });
      return;
    }
    const type = PANEL_ASSET_FILES[name as PanelAssetName];
    let content: Buffer;
    try {
      content = await readFile(join(options.assetsDir, name));
    } catch (error) {
      sendRouteError(
        response,
        500,
        new MemoryError(
          'CONFIGURATION_ERROR',
          `Panel asset ${name} is missing from ${options.assetsDir}; run "npm run build". (${error instanceof Error ? error.message : String(error)})`,
          { cause: error },
        ),
      );
      return;
    }
    response.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    response.end(content);
  }

  function openEventStream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.write(': connected\n\n');
    streams.add(response);
    const subscription = options.controller.watch((notification) => {
      const message: HostMessage = { kind: 'notification', notification };
      response.write(`data: ${JSON.stringify(message)}\n\n`);
    });
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs);
    heartbeat.unref?.();
    const close = (): void => {
      clearInterval(heartbeat);
      subscription.dispose();
      streams.delete(response);
    };
    request.once('close', close);
    response.once('close', close);
  }

  return {
    handle,
    dispose: () => {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}

function hasBearer(request: IncomingMessage): boolean {
  return (request.headers.authorization ?? '').startsWith('Bearer ');
}

function isJson(request: IncomingMessage): boolean {
  return /^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '');
}

/**
 * Whether a cookie-authenticated request comes from the panel's own page: the browser says so in
 * Sec-Fetch-Site, or else in an Origin equal to the Host it connected to (the server has already
 * refused foreign Hosts and Origins). A request with neither is not from a browser page we serve.
 */
function isSameOrigin(request: IncomingMessage): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  return origin !== undefined && origin === `http://${request.headers.host ?? ''}`;
}

function readCookie(request: IncomingMessage, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(payload));
}

function unauthorizedJson(response: ServerResponse): true {
  sendRouteError(response, 401, {
    status: 401,
    code: 'UNAUTHORIZED',
    message:
      'The panel needs the server token: open the panel URL that "fml serve --http" printed, or send "Authorization: Bearer <token>".',
  });
  return true;
}

function unauthorizedPage(response: ServerResponse): true {
  response.writeHead(401, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(
    '<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Memory panel: sign-in needed</title></head><body>' +
      '<h1>Memory panel</h1><p>This page needs the server token. Open the panel URL that <code>fml serve --http</code> printed ' +
      '(it ends with <code>?token=…</code>); the token is then kept in a cookie for this browser session.</p></body></html>',
  );
  return true;
}

function methodNotAllowed(response: ServerResponse, allow: string): true {
  response.setHeader('Allow', allow);
  sendRouteError(response, 405, { status: 405, code: 'METHOD_NOT_ALLOWED', message: `Use ${allow} on this path.` });
  return true;
}
