import {
  type Server,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from './mcpSdk.ts';
import { MemoryError } from '../core/domain/errors.ts';
import { errorWithoutLocalPaths, valueWithoutLocalPaths } from './localPaths.ts';
import { JsonRpcError, RPC_RESOURCE_NOT_FOUND } from './rpcError.ts';
import type { ServerContext } from './serverContext.ts';
import { storedTextJson } from '../core/api/storedText.ts';

const TEMPLATES = [
  {
    uriTemplate: 'memory://{user_id}/stats',
    name: 'memory_stats',
    title: 'Memory statistics',
    description:
      'Memory usage statistics for a user: counts by category and subtype, store health, embedding provider.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://{session_id}/info',
    name: 'session_info',
    title: 'Session information',
    description: 'Current session state and configuration: token budget, eviction policy, working-memory items.',
    mimeType: 'application/json',
  },
];

const STATS = /^memory:\/\/([^/]+)\/stats$/;
const INFO = /^memory:\/\/([^/]+)\/info$/;

/** Seed 000 §7.2 resources: per-user statistics and per-session state, as JSON. */
export function registerResources(server: Server, context: ServerContext): void {
  // The resources are per user and per session: there is nothing to list without an id.
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const body = valueWithoutLocalPaths(await withoutPathsInErrors(() => read(context, uri)));
    return { contents: [{ uri, mimeType: 'application/json', text: storedTextJson(body, 2) }] };
  });
}

async function read(context: ServerContext, uri: string): Promise<unknown> {
  const stats = STATS.exec(uri);
  if (stats) {
    const userId = decodeURIComponent(stats[1]!);
    // Another user's statistics are reported as absent, not as forbidden: their existence is not ours to tell.
    if (context.defaultUserId && userId !== context.defaultUserId)
      throw notFound(uri, "This server serves one user; other users' statistics are not available.");
    return context.core.stats(userId);
  }
  const info = INFO.exec(uri);
  if (info) {
    try {
      return await context.core.workingState(decodeURIComponent(info[1]!), context.defaultUserId);
    } catch (error) {
      if (MemoryError.is(error, 'SESSION_NOT_FOUND')) throw notFound(uri, error.message);
      throw error;
    }
  }
  throw notFound(uri, 'Resources are memory://{user_id}/stats and memory://{session_id}/info.');
}

function notFound(uri: string, why: string): JsonRpcError {
  return new JsonRpcError(RPC_RESOURCE_NOT_FOUND, `Resource not found: ${uri}. ${why}`, { uri });
}

/** Runs a resource read; a failure reaches the client typed and without local paths. */
async function withoutPathsInErrors<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof JsonRpcError) throw error;
    throw MemoryError.is(error) ? errorWithoutLocalPaths(error) : new Error(withoutLocalPathsOf(error));
  }
}

function withoutLocalPathsOf(error: unknown): string {
  return valueWithoutLocalPaths(error instanceof Error ? error.message : String(error));
}
