import { isInitializeRequest, type RequestId } from './mcpSdk.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MemoryError } from '../core/domain/errors.ts';
import { sendRpcError } from '../http/httpErrors.ts';
import { stderrLogger, type Logger } from '../core/ports/logger.ts';
import { CallLog } from './callLog.ts';
import { createMcpSession } from './createMcpServer.ts';
import { JsonHttpTransport } from './jsonHttpTransport.ts';
import { RPC_INVALID_REQUEST, RPC_PARSE_ERROR, RPC_SERVER_ERROR, RPC_SESSION_NOT_FOUND } from './jsonRpcMessages.ts';
import type { ServerContext } from './serverContext.ts';
import { ShortIdRegistry } from './shortIds.ts';

export const MCP_PATH = '/mcp';

/**
 * Open sessions one endpoint keeps (about 5 KB of heap each, measured at 8,000). Clients seldom
 * end their sessions (a window reload or an agent's restart just opens a new one), and the memory
 * process is shared and long-lived: without a bound the sessions of weeks would pile up. Past it
 * the least recently used session is closed; its client's next request gets 404 "initialize
 * again", which the spec gives clients for a session the server ended.
 */
export const MAX_OPEN_SESSIONS = 10_000;

export interface McpHttpEndpointOptions {
  /** Open sessions kept before the least recently used is closed; default MAX_OPEN_SESSIONS. */
  maxSessions?: number;
}

export interface McpHttpEndpoint {
  /** The server's recent calls and errors, shared by every session. */
  callLog: CallLog;
  /** A request to /mcp that passed the Host/Origin check, the token and the rate limit. */
  handle(request: IncomingMessage, response: ServerResponse, body: () => Promise<unknown>): Promise<void>;
  /** Ends every session; their pending requests are answered with an error. */
  close(): Promise<void>;
}

/**
 * MCP over Streamable HTTP: one MCP server per MCP session, over a transport that answers every
 * POST with plain JSON (jsonHttpTransport.ts). Measured against the SDK's
 * StreamableHTTPServerTransport in JSON-response mode under `npm run bench:load`, it costs the
 * server less CPU per operation and serves more operations per second (docs/mcp.md "Transports"). The sessions share the core, the call log and the
 * short ids shown in answers, so an id recalled in one session works in the next.
 */
export function createMcpHttpEndpoint(context: ServerContext, options: McpHttpEndpointOptions = {}): McpHttpEndpoint {
  const maxSessions = options.maxSessions ?? MAX_OPEN_SESSIONS;
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    throw new MemoryError('CONFIGURATION_ERROR', `maxSessions must be a positive integer; got ${maxSessions}.`);
  const callLog = new CallLog();
  const shared: ServerContext = { ...context, shortIds: context.shortIds ?? new ShortIdRegistry() };
  /** Open sessions by id, least recently used first (a Map keeps insertion order; a use moves one last). */
  const sessions = new Map<string, JsonHttpTransport>();

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: () => Promise<unknown>,
  ): Promise<void> {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? used(sessions, sessionId) : undefined;
    if (request.method === 'POST') {
      let posted: unknown;
      try {
        posted = await body();
      } catch (error) {
        if (MemoryError.is(error, 'CONTENT_TOO_LONG')) {
          // Answer first, then drop the connection: the rest of the body is never read.
          response.setHeader('Connection', 'close');
          response.once('finish', () => request.destroy());
          return sendRpcError(response, 413, RPC_INVALID_REQUEST, error);
        }
        if (MemoryError.is(error, 'INVALID_INPUT')) return sendRpcError(response, 400, RPC_PARSE_ERROR, error);
        throw error;
      }
      if (existing) return existing.handlePost(request, response, posted);
      if (sessionId !== undefined)
        return sendRpcError(
          response,
          404,
          RPC_SESSION_NOT_FOUND,
          new MemoryError('SESSION_NOT_FOUND', 'Unknown MCP session; initialize again.'),
          idOf(posted),
        );
      if (!isInitializeRequest(posted))
        return sendRpcError(
          response,
          400,
          RPC_INVALID_REQUEST,
          new MemoryError('INVALID_INPUT', 'The first request of an MCP session must be initialize.'),
          idOf(posted),
        );
      const transport = await openSession(shared, callLog, sessions, maxSessions);
      return transport.handlePost(request, response, posted);
    }
    if (request.method === 'DELETE') {
      if (!existing)
        return sendRpcError(
          response,
          404,
          RPC_SESSION_NOT_FOUND,
          new MemoryError('SESSION_NOT_FOUND', 'Unknown or missing MCP session id.'),
        );
      return existing.handleDelete(request, response);
    }
    // GET would open a server-to-client SSE stream; this server sends nothing unasked, and the
    // spec's answer for a server without that stream is 405 (clients then carry on with POSTs).
    response.setHeader('Allow', 'POST, DELETE');
    return sendRpcError(response, 405, RPC_SERVER_ERROR, {
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: `Method ${request.method} is not allowed on ${MCP_PATH}.`,
    });
  }

  return {
    callLog,
    handle,
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
    },
  };
}

/**
 * A new session's server and transport. Made outside `handle` on purpose: a closure made there
 * shares `handle`'s scope, so the session's callbacks would keep its initialize request, response
 * and parsed body for as long as the session lives (2,000 open sessions held 2,000 requests).
 */
async function openSession(
  context: ServerContext,
  callLog: CallLog,
  sessions: Map<string, JsonHttpTransport>,
  maxSessions: number,
): Promise<JsonHttpTransport> {
  const session = createMcpSession(context, callLog);
  const transport: JsonHttpTransport = new JsonHttpTransport({
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
      if (sessions.size > maxSessions) closeLeastRecentlyUsed(sessions, context.log ?? stderrLogger);
    },
    toolCalls: session.callTool,
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await session.server.connect(transport);
  return transport;
}

/** The open session of that id, moved to the back of the map (the most recently used); undefined when none. */
function used(sessions: Map<string, JsonHttpTransport>, id: string): JsonHttpTransport | undefined {
  const transport = sessions.get(id);
  if (transport !== undefined) {
    sessions.delete(id);
    sessions.set(id, transport);
  }
  return transport;
}

/** Closes the session used longest ago; its requests still running are answered with an error. */
function closeLeastRecentlyUsed(sessions: Map<string, JsonHttpTransport>, log: Logger): void {
  const oldest = sessions.entries().next().value;
  if (oldest === undefined) return;
  const [id, transport] = oldest;
  // Gone from the map now, not when close() gets round to onclose: the next request must not find it.
  sessions.delete(id);
  transport.close().catch((error: unknown) => log.error(`closing the least recently used MCP session failed`, error));
}

/** The id of a posted single request, so its error can name it. */
function idOf(body: unknown): RequestId | null {
  const id =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
