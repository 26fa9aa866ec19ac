import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryError } from '../core/domain/errors.ts';
import { stderrLogger } from '../core/ports/logger.ts';
import type { CallLog } from '../mcp/callLog.ts';
import { RPC_INTERNAL_ERROR, RPC_SERVER_ERROR } from '../mcp/jsonRpcMessages.ts';
import { createMcpHttpEndpoint, MCP_PATH } from '../mcp/mcpHttpEndpoint.ts';
import type { ServerContext } from '../mcp/serverContext.ts';
import { createOpenSpecRoutes, isOpenSpecPath } from '../openspec/openSpecRoutes.ts';
import { sendRouteError, sendRpcError, type HttpRejection } from './httpErrors.ts';
import { checkBearer, checkHostAndOrigin } from './httpGuards.ts';
import { RateLimiter } from './rateLimiter.ts';
import { onceBody } from './requestBody.ts';

export interface HttpServerOptions {
  port: number;
  token: string;
  /** Requests per minute per client and burst (seed 000 §13.3); 0 disables limiting. */
  rateLimit?: { perMinute: number; burst: number };
  maxBodyBytes?: number;
  /** Open MCP sessions kept before the least recently used is closed (mcpHttpEndpoint.ts MAX_OPEN_SESSIONS). */
  maxSessions?: number;
  /** Extra routes (the panel's UI and API) tried before the MCP endpoint; return true when handled. They check the token themselves. */
  extraRoutes?: (request: IncomingMessage, response: ServerResponse, body: () => Promise<unknown>) => Promise<boolean>;
}

export interface RunningHttpServer {
  url: string;
  mcpUrl: string;
  port: number;
  callLog: CallLog;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

/**
 * The local HTTP server on 127.0.0.1 only: MCP at /mcp, seed 001's OpenSpec endpoints, and the
 * extra routes of whoever starts it (the panel). Every request passes the Host/Origin check;
 * /mcp and OpenSpec then need the bearer token and pass the per-client rate limit.
 *
 * One error format: a JSON-RPC request (anything on /mcp) is refused with a JSON-RPC error body
 * whose `data` is the typed error; every other route answers `{ "error": { code, message,
 * retryable, operation?, details? } }` (httpErrors.ts), the same typed error.
 */
export async function startHttpServer(context: ServerContext, options: HttpServerOptions): Promise<RunningHttpServer> {
  const limiter =
    options.rateLimit && options.rateLimit.perMinute > 0
      ? new RateLimiter(options.rateLimit.perMinute, options.rateLimit.burst)
      : null;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const mcp = createMcpHttpEndpoint(context, { maxSessions: options.maxSessions });
  // Seed 001 OpenSpec endpoints: same core, token, Host/Origin checks and rate limit as /mcp.
  const openSpec = createOpenSpecRoutes(context);
  let port = options.port;

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      (context.log ?? stderrLogger).error(`HTTP ${request.method ?? ''} ${request.url ?? ''} failed`, error);
      if (response.headersSent) return void response.end();
      const failure = new MemoryError('PROVIDER_ERROR', error instanceof Error ? error.message : String(error));
      refuse(request, response, 500, failure, RPC_INTERNAL_ERROR);
    });
  });

  /** An error in the format of the route asked: JSON-RPC on /mcp, the route error body elsewhere. */
  function refuse(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    error: MemoryError | HttpRejection,
    rpcCode = RPC_SERVER_ERROR,
  ): void {
    if (pathOf(request) === MCP_PATH) sendRpcError(response, status, rpcCode, error);
    else sendRouteError(response, status, error);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // An MCP client asks for exactly /mcp on every call: that needs no URL parser (0.5 % of a busy server's CPU).
    const url = request.url === MCP_PATH ? null : new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const guard = checkHostAndOrigin(request, port);
    if (guard) return refuse(request, response, guard.status, guard);
    const body = onceBody(request, maxBody);
    const openSpecPath = url !== null && isOpenSpecPath(url.pathname);
    const isMcp = url === null || url.pathname === MCP_PATH;
    if (!isMcp && !openSpecPath) {
      if (options.extraRoutes && (await options.extraRoutes(request, response, body))) return;
      return sendRouteError(response, 404, {
        status: 404,
        code: 'NOT_FOUND',
        message: `Not found. The MCP endpoint is ${MCP_PATH}.`,
      });
    }
    const auth = checkBearer(request, options.token);
    if (auth) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="fml"');
      return refuse(request, response, auth.status, auth);
    }
    if (limiter) {
      const wait = limiter.take(String(request.headers['mcp-session-id'] ?? request.socket.remoteAddress ?? 'client'));
      if (wait > 0) {
        response.setHeader('Retry-After', String(wait));
        return refuse(
          request,
          response,
          429,
          new MemoryError('RATE_LIMITED', `Too many requests; retry after ${wait} s.`),
        );
      }
    }
    if (openSpecPath) return openSpec.handle(request, response, url, body);
    return mcp.handle(request, response, body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new MemoryError(
              'CONFIGURATION_ERROR',
              `Port ${options.port} on 127.0.0.1 is already in use. Stop the other process or pass --port <free port> (0 picks one).`,
              { cause: error },
            )
          : new MemoryError('CONFIGURATION_ERROR', `Cannot listen on 127.0.0.1:${options.port}: ${error.message}`, {
              cause: error,
            }),
      );
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    mcpUrl: `${url}${MCP_PATH}`,
    port,
    callLog: mcp.callLog,
    close: async () => {
      openSpec.dispose();
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function pathOf(request: IncomingMessage): string {
  if (request.url === MCP_PATH) return MCP_PATH;
  return new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
}
