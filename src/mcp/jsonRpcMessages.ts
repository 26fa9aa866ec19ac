import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from './mcpSdk.ts';
import { MemoryError } from '../core/domain/errors.ts';

/** JSON-RPC 2.0 error codes the HTTP transport answers with. */
export const RPC_INVALID_REQUEST = -32600;
export const RPC_PARSE_ERROR = -32700;
export const RPC_INTERNAL_ERROR = -32603;
/** Server errors of the MCP transport (the SDK uses the same two). */
export const RPC_SERVER_ERROR = -32000;
export const RPC_SESSION_NOT_FOUND = -32001;

/** The SDK transport's limit: a batch is answered in one response, so it cannot grow without bound. */
export const MAX_BATCH_MESSAGES = 100;

export interface ParsedPost {
  messages: JSONRPCMessage[];
  /** A JSON array was posted: the answer is an array too (JSON-RPC 2.0 §6), even of one. */
  batch: boolean;
}

/**
 * The messages of one POSTed body. Validated with the SDK's own message schema, so a message this
 * transport takes for a request is one the SDK's protocol layer answers; a looser check would let
 * through a message the protocol drops as unknown, and its POST would never be answered.
 */
export function parsePostedMessages(body: unknown): ParsedPost {
  const batch = Array.isArray(body);
  const raw: unknown[] = batch ? body : [body];
  if (raw.length === 0)
    throw new MemoryError('INVALID_INPUT', 'An empty JSON-RPC batch is not a valid request.', {
      details: { rpc_code: RPC_INVALID_REQUEST },
    });
  if (raw.length > MAX_BATCH_MESSAGES) {
    throw new MemoryError(
      'INVALID_INPUT',
      `A JSON-RPC batch may hold at most ${MAX_BATCH_MESSAGES} messages; got ${raw.length}.`,
      { details: { rpc_code: RPC_INVALID_REQUEST } },
    );
  }
  const messages = raw.map((item, index) => {
    if (isPlainRequest(item)) return item;
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Message ${index} is not a JSON-RPC 2.0 request, notification or response.`,
        { details: { rpc_code: RPC_INVALID_REQUEST } },
      );
    }
    return parsed.data;
  });
  return { messages, batch };
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The common request, checked by hand: `jsonrpc` "2.0", an id that is a string or a safe integer,
 * a method name, params absent or an object without `_meta`, and no other key. Every message this
 * accepts, the SDK's JSONRPCRequestSchema accepts too; anything else (a `_meta`, a notification,
 * a response, a malformed message) goes to the schema. The schema's union costs a busy server
 * about 0.5 % of its CPU, for the one shape nearly every POST has.
 */
function isPlainRequest(item: unknown): item is JSONRPCMessage {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  const message = item as Record<string, unknown>;
  for (const key in message) if (!REQUEST_KEYS.has(key) || !Object.hasOwn(message, key)) return false;
  const { id, params } = message;
  return (
    message.jsonrpc === '2.0' &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    typeof message.method === 'string' &&
    (params === undefined ||
      (params !== null && typeof params === 'object' && !Array.isArray(params) && !Object.hasOwn(params, '_meta')))
  );
}

/** A request expects an answer: it has a method and an id (the schema has already checked both). */
export function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in message && 'id' in message;
}

/** A result or an error answering an earlier request. */
export function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id?: RequestId } {
  return 'result' in message || 'error' in message;
}

/**
 * A tools/call whose params carry neither `_meta` (a progress token, a related task) nor `task`
 * (task-augmented execution): the SDK's protocol layer does nothing for it but call the handler
 * and send the answer, so a transport may run it directly (jsonHttpTransport.ts).
 */
export function isPlainToolCall(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { id: RequestId; method: 'tools/call'; params?: Record<string, unknown> } {
  if (!isRequest(message) || message.method !== 'tools/call') return false;
  const params: unknown = (message as { params?: unknown }).params;
  return (
    params === undefined ||
    (typeof params === 'object' &&
      params !== null &&
      !Array.isArray(params) &&
      !Object.hasOwn(params, '_meta') &&
      !Object.hasOwn(params, 'task'))
  );
}

export function isInitialize(message: JSONRPCMessage): boolean {
  return isRequest(message) && message.method === 'initialize';
}
