import { AjvJsonSchemaValidator, Server, ListToolsRequestSchema, type CallToolResult, type Tool } from './mcpSdk.ts';
import { createHash } from 'node:crypto';
import { boundIdentifiers } from './boundIdentifiers.ts';
import { CallLog } from './callLog.ts';
import { callTool, type AnyTool } from './defineTool.ts';
import { registerResources } from './resources.ts';
import { JsonRpcError, RPC_INVALID_PARAMS, RPC_METHOD_NOT_FOUND } from './rpcError.ts';
import type { ServerContext } from './serverContext.ts';
import { ShortIdRegistry } from './shortIds.ts';
import { toolsOffered } from './toolCatalog.ts';
import { jsonSchemasOf } from './toolSchemas.ts';

/** The implementation name this server reports (MCP initialize serverInfo, OpenSpec discovery). */
export const MCP_IMPLEMENTATION_NAME = 'firebolt-memory-layer';
export const SERVER_VERSION = '0.1.0';

const INSTRUCTIONS =
  'Memory for coding agents. Call init_session once per conversation, get_relevant_context before answering, store_memory for decisions, facts, workflows and preferences worth keeping, recall_memories to search. Tool errors start with a code (INVALID_INPUT, MEMORY_NOT_FOUND, ...) and say what to change.';

/** The tools/list entries of one server: what every agent request carries. */
export function listTools(context: ServerContext): Tool[] {
  const hidden = boundIdentifiers(context);
  return toolsOffered(context).map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    ...jsonSchemasOf(tool, hidden),
    annotations: { title: tool.title, ...tool.annotations },
  })) as Tool[];
}

/**
 * Changes whenever the listed tools change (names, descriptions, schemas), so editors know to
 * refresh their cached tool list. Depends on the group offered, not on who is bound.
 */
export function toolSetVersion(options: { adminTools?: boolean }): string {
  const listing = toolsOffered(options).map((tool) => [tool.name, tool.description, jsonSchemasOf(tool, [])]);
  return `${SERVER_VERSION}+${createHash('sha256').update(JSON.stringify(listing)).digest('hex').slice(0, 8)}`;
}

let schemaValidator: AjvJsonSchemaValidator | undefined;

/**
 * The JSON Schema validator every MCP server of this process is given (the SDK's documented
 * `jsonSchemaValidator` option). Left out, each server builds its own Ajv with its meta-schemas,
 * one per HTTP session: thousands of sessions held thousands of copies. A server only uses it
 * to check a client's elicitation answer, which this one never asks for, so sharing it shares no
 * state between sessions; made on first use.
 */
export function sharedJsonSchemaValidator(): AjvJsonSchemaValidator {
  return (schemaValidator ??= new AjvJsonSchemaValidator());
}

/** Runs one tools/call from its params: the tool's result, or a JsonRpcError (-32602) for a malformed call or an unknown tool. */
export type ToolCallDispatch = (params: unknown) => Promise<CallToolResult>;

/** An MCP server and the tools/call dispatch its tools/call handler runs, for a transport that answers tool calls itself. */
export interface McpSession {
  server: Server;
  callTool: ToolCallDispatch;
}

/**
 * A fresh MCP server over one core. One per connection (stdio, each HTTP session, tests);
 * they share the core and the call log, never module state.
 *
 * Built on the SDK's low-level Server with public request handlers, so the listing (schemas in
 * 2020-12 without bound identifiers) and the protocol errors (-32602 unknown tool or bad
 * arguments) are this server's own, not a patch over the high-level McpServer.
 */
export function createMcpServer(context: ServerContext, callLog = new CallLog()): Server {
  return createMcpSession(context, callLog).server;
}

/** As createMcpServer, and the tools/call dispatch for a transport that runs plain tool calls without the SDK's protocol layer (jsonHttpTransport.ts). */
export function createMcpSession(context: ServerContext, callLog = new CallLog()): McpSession {
  const server = new Server(
    { name: MCP_IMPLEMENTATION_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: sharedJsonSchemaValidator(),
    },
  );
  // Tools read the very log that records their calls (get_recent_calls / get_recent_errors).
  const shortIds = context.shortIds ?? new ShortIdRegistry();
  const served: ServerContext = { ...context, callLog, shortIds };
  const tools = new Map<string, AnyTool>(toolsOffered(context).map((tool) => [tool.name, tool]));
  const dispatch: ToolCallDispatch = async (params) => {
    const { name, args } = callParams(params);
    const tool = tools.get(name);
    if (tool === undefined) {
      const offered = [...tools.keys()].join(', ');
      throw new JsonRpcError(RPC_INVALID_PARAMS, `Unknown tool "${name}". This server offers: ${offered}.`);
    }
    return callTool(served, tool, args, callLog, shortIds);
  };
  let listing: Tool[] | undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: (listing ??= listTools(context)) }));
  // tools/call is dispatched here rather than through setRequestHandler: the SDK's tools/call
  // wrapper answers malformed params with a raw schema dump, and clients deserve a sentence.
  server.fallbackRequestHandler = async (request) => {
    if (request.method !== 'tools/call')
      throw new JsonRpcError(RPC_METHOD_NOT_FOUND, `Method not found: ${request.method}`);
    return (await dispatch(request.params)) satisfies CallToolResult;
  };
  registerResources(server, context);
  return { server, callTool: dispatch };
}

/** The name and arguments of a tools/call, or a -32602 saying what is wrong with them. */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    throw new JsonRpcError(RPC_INVALID_PARAMS, 'tools/call needs params: an object with "name" and "arguments".');
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name.length === 0)
    throw new JsonRpcError(RPC_INVALID_PARAMS, 'tools/call needs params.name: the name of a tool from tools/list.');
  if (args === undefined) return { name, args: {} };
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    const kind = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
    throw new JsonRpcError(
      RPC_INVALID_PARAMS,
      `tools/call params.arguments must be an object of named arguments; got ${kind}.`,
    );
  }
  return { name, args: args as Record<string, unknown> };
}
