/**
 * Everything this server takes from the MCP TypeScript SDK, in one place: the low-level Server,
 * the Transport interface its transports implement, and the protocol's message types and schemas.
 * The rest of src/mcp imports these names from here (the layer rule lets no other file import
 * the SDK), so moving to the SDK's next major version, whose packages and paths change, touches
 * this file and the code that uses a changed API, not every import.
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export {
  isInitializeRequest,
  JSONRPCMessageSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
