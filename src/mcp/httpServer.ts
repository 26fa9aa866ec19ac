import { stderrLogger } from '../core/ports/logger.ts';
import { isInitializeRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryError } from '../core/domain/errors.ts';
import { CallLog } from './callLog.ts';
import { createMcpServer } from './createMcpServer.ts';
import { checkBearer, checkHostAndOrigin, type GuardRejection } from './httpGuards.ts';
import { JsonHttpTransport } from './jsonHttpTransport.ts';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { createOpenSpecRoutes, isOpenSpecPath } from '../openspec/openSpecRoutes.ts';
import { RPC_INTERNAL_ERROR, RPC_INVALID_REQUEST, RPC_PARSE_ERROR, RPC_SERVER_ERROR, RPC_SESSION_NOT_FOUND } from './jsonRpcMessages.ts';
import { RateLimiter } from './rateLimiter.ts';
import type { ServerContext } from './serverContext.ts';

export interface HttpServerOptions {
  port: number;
  token: string;
  /** Requests per minute per client and burst (seed 000 §13.3); 0 disables limiting. */
  rateLimit?: { perMinute: number; burst: number };
  maxBodyBytes?: number;
  /** Extra routes (the panel's UI and API) tried before the MCP endpoint; return true when handled. */
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
 * Streamable HTTP MCP endpoint at /mcp on 127.0.0.1 only, behind a bearer token, Host/Origin
 * checks, a body size limit and per-client rate limiting. One MCP server per MCP session, over
 * a transport that answers every POST with plain JSON (jsonHttpTransport.ts).
 */
export async function startHttpServer(context: ServerContext, options: HttpServerOptions): Promise<RunningHttpServer> {
  const callLog = new CallLog();
  const sessions = new Map<string, JsonHttpTransport>();
  const sdkSessions = new Map<string, StreamableHTTPServerTransport>();
  const limiter = options.rateLimit && options.rateLimit.perMinute > 0 ? new RateLimiter(options.rateLimit.perMinute, options.rateLimit.burst) : null;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  // Seed 001 OpenSpec endpoints: same core, token, Host/Origin checks and rate limit as /mcp.
  const openSpec = createOpenSpecRoutes(context);
  let port = options.port;

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      (context.log ?? stderrLogger).error(`HTTP ${request.method ?? ''} ${request.url ?? ''} failed`, error);
      const message = error instanceof Error ? error.message : String(error);
      if (response.headersSent) response.end();
      else if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname === '/mcp') sendMcpError(response, 500, RPC_INTERNAL_ERROR, new MemoryError('PROVIDER_ERROR', message));
      else sendError(response, 500, 'PROVIDER_ERROR', message);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const guard = checkHostAndOrigin(request, port);
    if (guard) {
      if (url.pathname === '/mcp') return sendMcpError(response, guard.status, RPC_SERVER_ERROR, guard);
      return sendError(response, guard.status, guard.code, guard.message);
    }
    const bodyReader = once(() => readJsonBody(request, maxBody));
    const openSpecPath = isOpenSpecPath(url.pathname);
    if (options.extraRoutes && url.pathname !== '/mcp' && !openSpecPath && (await options.extraRoutes(request, response, bodyReader))) return;
    if (url.pathname !== '/mcp' && !openSpecPath) return sendError(response, 404, 'NOT_FOUND', 'Not found. The MCP endpoint is /mcp.');
    const auth = checkBearer(request, options.token);
    if (auth) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="fml"');
      if (openSpecPath) return sendError(response, auth.status, auth.code, auth.message);
      return sendMcpError(response, auth.status, RPC_SERVER_ERROR, auth);
    }
    if (limiter) {
      const wait = limiter.take(String(request.headers['mcp-session-id'] ?? request.socket.remoteAddress ?? 'client'));
      if (wait > 0) {
        response.setHeader('Retry-After', String(wait));
        if (openSpecPath) return sendError(response, 429, 'RATE_LIMITED', `Too many requests; retry after ${wait} s.`);
        return sendMcpError(response, 429, RPC_SERVER_ERROR, new MemoryError('RATE_LIMITED', `Too many requests; retry after ${wait} s.`));
      }
    }
    if (openSpecPath) return openSpec.handle(request, response, url, bodyReader);
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (request.method === 'POST') {
      let body: unknown;
      try {
        body = await bodyReader();
      } catch (error) {
        if (MemoryError.is(error, 'CONTENT_TOO_LONG')) {
          // Answer first, then drop the connection: the rest of the body is never read.
          response.setHeader('Connection', 'close');
          response.once('finish', () => request.destroy());
          return sendMcpError(response, 413, RPC_INVALID_REQUEST, error);
        }
        if (MemoryError.is(error, 'INVALID_INPUT')) return sendMcpError(response, 400, RPC_PARSE_ERROR, error);
        throw error;
      }
      const sdk = sdkSessions.get(String(sessionId));
      if (sdk) return sdk.handleRequest(request, response, body);
      if (existing) return existing.handlePost(request, response, body);
      if (sessionId !== undefined) return sendMcpError(response, 404, RPC_SESSION_NOT_FOUND, new MemoryError('SESSION_NOT_FOUND', 'Unknown MCP session; initialize again.'), idOf(body));
      if (!isInitializeRequest(body)) return sendMcpError(response, 400, RPC_INVALID_REQUEST, new MemoryError('INVALID_INPUT', 'The first request of an MCP session must be initialize.'), idOf(body));
      if (process.env.FML_AB_TRANSPORT === 'sdk') {
        const sdkTransport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true, onsessioninitialized: (id) => void sdkSessions.set(id, sdkTransport) });
        sdkTransport.onclose = () => {
          if (sdkTransport.sessionId) sdkSessions.delete(sdkTransport.sessionId);
        };
        await createMcpServer(context, callLog).connect(sdkTransport);
        return sdkTransport.handleRequest(request, response, body);
      }
      const transport: JsonHttpTransport = new JsonHttpTransport({ onsessioninitialized: (id) => sessions.set(id, transport) });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await createMcpServer(context, callLog).connect(transport);
      return transport.handlePost(request, response, body);
    }
    if (request.method === 'DELETE') {
      const sdk = sdkSessions.get(String(sessionId));
      if (sdk) return sdk.handleRequest(request, response);
      if (!existing) return sendMcpError(response, 404, RPC_SESSION_NOT_FOUND, new MemoryError('SESSION_NOT_FOUND', 'Unknown or missing MCP session id.'));
      return existing.handleDelete(request, response);
    }
    // GET would open a server-to-client SSE stream; this server sends nothing unasked, and the
    // spec's answer for a server without that stream is 405 (clients then carry on with POSTs).
    response.setHeader('Allow', 'POST, DELETE');
    return sendMcpError(response, 405, RPC_SERVER_ERROR, new MemoryError('INVALID_INPUT', `Method ${request.method} is not allowed on /mcp.`));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new MemoryError('CONFIGURATION_ERROR', `Port ${options.port} on 127.0.0.1 is already in use. Stop the other process or pass --port <free port> (0 picks one).`, { cause: error })
          : new MemoryError('CONFIGURATION_ERROR', `Cannot listen on 127.0.0.1:${options.port}: ${error.message}`, { cause: error }),
      );
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    mcpUrl: `${url}/mcp`,
    port,
    callLog,
    close: async () => {
      openSpec.dispose();
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An HTTP error answering a JSON-RPC request on /mcp: a JSON-RPC error body (id null when the
 * request's id is unknown), its data the typed error, so MCP clients read it like any other error.
 */
function sendMcpError(response: ServerResponse, status: number, rpcCode: number, error: MemoryError | GuardRejection, id: RequestId | null = null): void {
  const data = MemoryError.is(error) ? error.toJSON() : { code: error.code, message: error.message };
  const body = JSON.stringify({ jsonrpc: '2.0', id, error: { code: rpcCode, message: error.message, data } });
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

/** The id of a posted single request, so its error can name it. */
function idOf(body: unknown): RequestId | null {
  const id = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Errors of the routes that are not MCP (the panel's pages and API, unknown paths). */
export function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ error: { code, message } }));
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= make());
}

async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new MemoryError('CONTENT_TOO_LONG', `Request body of ${declared} bytes exceeds the ${limit}-byte limit.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw new MemoryError('CONTENT_TOO_LONG', `Request body exceeds the ${limit}-byte limit.`);
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (cause) {
    throw new MemoryError('INVALID_INPUT', 'Request body is not valid JSON.', { cause });
  }
}
