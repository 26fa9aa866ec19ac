import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MemoryError } from '../core/domain/errors.ts';
import { errorWithoutLocalPaths, valueWithoutLocalPaths } from './localPaths.ts';
import type { ServerContext } from './serverContext.ts';

/** Seed 000 §7.2 resources: per-user statistics and per-session state, as JSON. */
export function registerResources(server: McpServer, context: ServerContext): void {
  server.registerResource(
    'memory_stats',
    new ResourceTemplate('memory://{user_id}/stats', { list: undefined }),
    { title: 'Memory statistics', description: 'Memory usage statistics for a user: counts by category and subtype, store health, embedding provider.', mimeType: 'application/json' },
    async (uri, variables) => {
      const userId = String(variables.user_id);
      if (context.defaultUserId && userId !== context.defaultUserId) throw new MemoryError('UNAUTHORIZED', 'This server serves one user; other users\' statistics are not available.');
      const stats = valueWithoutLocalPaths(await withoutPathsInErrors(() => context.core.stats(userId)));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(stats, null, 2) }] };
    },
  );
  server.registerResource(
    'session_info',
    new ResourceTemplate('memory://{session_id}/info', { list: undefined }),
    { title: 'Session information', description: 'Current session state and configuration: token budget, eviction policy, working-memory items.', mimeType: 'application/json' },
    async (uri, variables) => {
      const state = await withoutPathsInErrors(() => context.core.working.state(String(variables.session_id), context.defaultUserId));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(state, null, 2) }] };
    },
  );
}

/** Runs a resource read; a failure reaches the client typed and without local paths. */
async function withoutPathsInErrors<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw MemoryError.is(error) ? errorWithoutLocalPaths(error) : new Error(withoutLocalPathsOf(error));
  }
}

function withoutLocalPathsOf(error: unknown): string {
  return valueWithoutLocalPaths(error instanceof Error ? error.message : String(error));
}
