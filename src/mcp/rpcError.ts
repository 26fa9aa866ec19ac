/** JSON-RPC 2.0 and MCP error codes the request handlers answer with. */
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;
/** MCP: the resource named by a resources/read does not exist. */
export const RPC_RESOURCE_NOT_FOUND = -32002;

/**
 * An error the SDK's protocol layer turns into a JSON-RPC error with exactly this code, message
 * and data. The SDK's own McpError prefixes "MCP error <code>:" to its message, which clients
 * then prefix again; this one says what happened once.
 */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }
}
