import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createHash } from 'node:crypto';
import { CallLog } from './callLog.ts';
import { MemoryError } from '../core/domain/errors.ts';
import { errorResult, registerTool } from './defineTool.ts';
import { registerResources } from './resources.ts';
import type { ServerContext } from './serverContext.ts';
import { TOOL_NAMES, TOOLS } from './toolCatalog.ts';

export const SERVER_NAME = 'firebolt-memory-layer';
export const SERVER_VERSION = '0.1.0';

/** Changes whenever the tool set changes, so editors know to refresh their cached tool list. */
export const TOOL_SET_VERSION = `${SERVER_VERSION}+${createHash('sha256').update(TOOL_NAMES.join(',')).digest('hex').slice(0, 8)}`;

/**
 * A fresh MCP server over one core. One per connection (stdio, each HTTP session, tests);
 * they share the core and the call log, never module state.
 */
export function createMcpServer(context: ServerContext, callLog = new CallLog()): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Memory for coding agents. Call init_session once per conversation, get_relevant_context before answering, store_memory for decisions, facts, workflows and preferences worth keeping, recall_memories to search. Tool errors carry a code (INVALID_INPUT, MEMORY_NOT_FOUND, SESSION_NOT_FOUND, CONTENT_TOO_LONG, ...) and a message saying what to change.',
    },
  );
  // Tools read the very log that records their calls (get_recent_calls / get_recent_errors).
  const served: ServerContext = { ...context, callLog };
  for (const tool of TOOLS) registerTool(server, served, tool as Parameters<typeof registerTool>[2], callLog);
  registerResources(server, context);
  // Input that fails the schema is reported like every other tool error: a code and a message.
  (server as unknown as { createToolError(message: string): unknown }).createToolError = (message: string) =>
    errorResult(new MemoryError('INVALID_INPUT', message));
  return server;
}
