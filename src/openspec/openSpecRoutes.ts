import { stderrLogger } from '../core/ports/logger.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from '../mcp/serverContext.ts';
import { runBatch } from './batch.ts';
import { ChangeStreams } from './changeStream.ts';
import { discovery, OPENSPEC_BASE } from './discovery.ts';
import { createEntry, deleteEntry, entryMetadata, updateEntry, type EntryLocation } from './knowledgeOperations.ts';
import { identifiersFromQuery } from './openSpecRequest.ts';
import { queryEntries } from './queryEntries.ts';
import { sendRouteError } from '../http/httpErrors.ts';
import { asMemoryError, sendJson, sendMemoryError } from './openSpecResponses.ts';

export interface OpenSpecRoutes {
  /** Handles a request under /openspec/v1/knowledge; the caller has already checked Host, Origin, token and rate. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL, body: () => Promise<unknown>): Promise<void>;
  dispose(): void;
}

export function isOpenSpecPath(pathname: string): boolean {
  return pathname === OPENSPEC_BASE || pathname.startsWith(`${OPENSPEC_BASE}/`);
}

/**
 * Seed 001's OpenSpec knowledge-provider endpoints, mounted on the HTTP MCP server behind the
 * same token. Routing only: every operation is in knowledgeOperations.ts, batch.ts or
 * changeStream.ts, and every failure is a seed 001 error body with an HTTP status.
 */
export function createOpenSpecRoutes(context: ServerContext): OpenSpecRoutes {
  const streams = new ChangeStreams();

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    body: () => Promise<unknown>,
  ): Promise<void> {
    const rest = url.pathname.slice(OPENSPEC_BASE.length).replace(/^\//, '');
    const segments = rest === '' ? [] : rest.split('/').map((segment) => decodeURIComponent(segment));
    const method = request.method ?? 'GET';
    const route = routeOf(method, segments);
    if ('allowed' in route) {
      if (route.allowed.length === 0)
        return sendRouteError(response, 404, {
          status: 404,
          code: 'NOT_FOUND',
          message: `No OpenSpec route ${url.pathname}; see GET ${OPENSPEC_BASE}.`,
        });
      response.setHeader('Allow', route.allowed.join(', '));
      return sendRouteError(response, 405, {
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: `Method ${method} is not allowed on ${url.pathname}.`,
      });
    }
    try {
      const location = (): EntryLocation => ({
        ...(url.searchParams.has('layer') ? { layer: url.searchParams.get('layer') as string } : {}),
        identifiers: identifiersFromQuery(url.searchParams),
      });
      switch (route.operation) {
        case 'discovery':
          return sendJson(response, 200, discovery(context));
        case 'query':
          return sendJson(response, 200, await queryEntries(context, await body()));
        case 'create':
          return sendJson(response, 201, await createEntry(context, await body()));
        case 'update':
          return sendJson(response, 200, await updateEntry(context, route.id, await body(), location()));
        case 'delete':
          return sendJson(response, 200, await deleteEntry(context, route.id, location()));
        case 'batch':
          return sendJson(response, 200, await runBatch(context, await body()));
        case 'metadata':
          return sendJson(response, 200, await entryMetadata(context, route.id, location()));
        case 'stream':
          return streams.start(context, request, response, identifiersFromQuery(url.searchParams));
      }
    } catch (error) {
      const failure = asMemoryError(error, route.operation);
      if (failure.code === 'PROVIDER_ERROR')
        (context.log ?? stderrLogger).error(`OpenSpec ${route.operation} failed`, error);
      if (!response.headersSent) return sendMemoryError(response, failure);
      response.end();
    }
  }

  return { handle, dispose: () => streams.closeAll() };
}

type Route =
  | { operation: 'discovery' | 'query' | 'create' | 'batch' | 'stream' }
  | { operation: 'update' | 'delete' | 'metadata'; id: string }
  | { allowed: string[] };

/** Fixed names first: an entry id is never "query", "create", "batch" or "stream" (ids are mem_…). */
function routeOf(method: string, segments: string[]): Route {
  const [first, second] = segments;
  if (segments.length === 0) return method === 'GET' ? { operation: 'discovery' } : { allowed: ['GET'] };
  if (segments.length === 1 && first === 'query')
    return method === 'POST' ? { operation: 'query' } : { allowed: ['POST'] };
  if (segments.length === 1 && first === 'create')
    return method === 'POST' ? { operation: 'create' } : { allowed: ['POST'] };
  if (segments.length === 1 && first === 'batch')
    return method === 'POST' ? { operation: 'batch' } : { allowed: ['POST'] };
  if (segments.length === 1 && first === 'stream')
    return method === 'GET' ? { operation: 'stream' } : { allowed: ['GET'] };
  if (segments.length === 1) {
    if (method === 'PUT') return { operation: 'update', id: first };
    if (method === 'DELETE') return { operation: 'delete', id: first };
    return { allowed: ['PUT', 'DELETE'] };
  }
  if (segments.length === 2 && second === 'metadata')
    return method === 'GET' ? { operation: 'metadata', id: first } : { allowed: ['GET'] };
  return { allowed: [] };
}
