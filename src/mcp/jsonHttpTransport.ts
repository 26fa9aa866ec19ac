import {
  type Transport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from './mcpSdk.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MemoryError } from '../core/domain/errors.ts';
import {
  isInitialize,
  isPlainToolCall,
  isRequest,
  isResponse,
  parsePostedMessages,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_REQUEST,
  RPC_SERVER_ERROR,
  RPC_SESSION_NOT_FOUND,
} from './jsonRpcMessages.ts';
import { rpcErrorBody, sendRpcError } from '../http/httpErrors.ts';

export interface JsonHttpTransportOptions {
  /** Called once the initialize request has been accepted, with the new session's id. */
  onsessioninitialized?: (sessionId: string) => void;
  /**
   * Runs a plain tools/call from its params (createMcpServer.ts `createMcpSession`). Given, such
   * calls are answered here without the SDK's protocol layer; everything else still goes to it.
   */
  toolCalls?: (params: unknown) => Promise<unknown>;
}

/** One POST waiting for the answers to its requests. */
interface PendingPost {
  response: ServerResponse;
  ids: RequestId[];
  answers: Map<RequestId, JSONRPCMessage>;
  batch: boolean;
  /** The client hung up: the answers have nowhere to go. */
  gone: boolean;
}

/**
 * The server side of MCP Streamable HTTP for one session, answering every POST with a single
 * `application/json` body. The spec lets a server answer POSTed requests with JSON instead of an
 * SSE stream, and every tool here answers at once, so the SDK's transport (a web Request/Response
 * bridge, stream bookkeeping and zod checks on every message it sends) is work this server never
 * needs. There is no server-initiated stream: GET is answered 405, as the spec allows.
 *
 * Host/Origin checks, the bearer token, the body limit and rate limiting happen before a request
 * reaches a session (src/http/httpServer.ts); this class checks what is the session's own business.
 */
export class JsonHttpTransport implements Transport {
  sessionId: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly options: JsonHttpTransportOptions;
  private readonly pending = new Map<RequestId, PendingPost>();
  private started = false;
  private closed = false;

  constructor(options: JsonHttpTransportOptions = {}) {
    this.options = options;
  }

  async start(): Promise<void> {
    if (this.started) throw new MemoryError('PROVIDER_ERROR', 'The MCP HTTP transport is already started.');
    this.started = true;
  }

  /** A POST to /mcp whose JSON body has been read (and size-checked) by the HTTP server. */
  handlePost(request: IncomingMessage, response: ServerResponse, body: unknown): void {
    if (this.closed)
      return reject(
        response,
        404,
        RPC_SESSION_NOT_FOUND,
        new MemoryError('SESSION_NOT_FOUND', 'The MCP session has ended; initialize a new one.'),
      );
    const accept = request.headers.accept;
    // Only JSON is ever sent back; a client that accepts neither it nor anything is refused.
    if (accept !== undefined && !/(?:application\/json|application\/\*|\*\/\*)/i.test(accept)) {
      return reject(
        response,
        406,
        RPC_SERVER_ERROR,
        new MemoryError(
          'INVALID_INPUT',
          'Not Acceptable: this server answers with application/json; list it in the Accept header.',
        ),
      );
    }
    if (!/^application\/json\s*(?:;|$)/i.test(request.headers['content-type'] ?? '')) {
      return reject(
        response,
        415,
        RPC_SERVER_ERROR,
        new MemoryError(
          'INVALID_INPUT',
          'Unsupported Media Type: POST a JSON-RPC message with Content-Type: application/json.',
        ),
      );
    }
    let parsed: ReturnType<typeof parsePostedMessages>;
    try {
      parsed = parsePostedMessages(body);
    } catch (error) {
      if (!MemoryError.is(error)) throw error;
      return reject(response, 400, RPC_INVALID_REQUEST, error);
    }
    const { messages, batch } = parsed;
    const initializing = messages.some(isInitialize);
    if (initializing) {
      if (this.sessionId !== undefined)
        return reject(
          response,
          400,
          RPC_INVALID_REQUEST,
          new MemoryError('INVALID_INPUT', 'This MCP session is already initialized.'),
        );
      if (messages.length > 1)
        return reject(
          response,
          400,
          RPC_INVALID_REQUEST,
          new MemoryError('INVALID_INPUT', 'initialize must be sent on its own, not in a batch.'),
        );
      this.sessionId = randomUUID();
      this.options.onsessioninitialized?.(this.sessionId);
    } else {
      const refused = this.checkSession(request);
      if (refused) return reject(response, refused.status, refused.rpcCode, refused.error);
    }

    const requests = messages.filter(isRequest);
    for (const message of requests) {
      if (this.pending.has(message.id)) {
        return reject(
          response,
          400,
          RPC_INVALID_REQUEST,
          new MemoryError(
            'INVALID_INPUT',
            `Request id ${JSON.stringify(message.id)} is already in flight in this session; use a new id.`,
          ),
        );
      }
    }
    if (requests.length === 0) {
      // Notifications and responses only: accepted, nothing to answer (spec: 202 with no body).
      for (const message of messages) this.deliver(message);
      response.writeHead(202).end();
      return;
    }
    const post: PendingPost = {
      response,
      ids: requests.map((message) => message.id),
      answers: new Map(),
      batch,
      gone: false,
    };
    for (const id of post.ids) this.pending.set(id, post);
    response.once('close', () => {
      // The client went away before its answer. The requests still run (a store still lands), so
      // their ids stay pending until the server answers them; answer() then drops the answers.
      if (!response.writableFinished) post.gone = true;
    });
    for (const message of messages) this.deliver(message);
  }

  /** DELETE ends the session (spec: the client's way to say it is done). */
  async handleDelete(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.closed)
      return reject(
        response,
        404,
        RPC_SESSION_NOT_FOUND,
        new MemoryError('SESSION_NOT_FOUND', 'The MCP session has already ended.'),
      );
    const refused = this.checkSession(request);
    if (refused) return reject(response, refused.status, refused.rpcCode, refused.error);
    await this.close();
    response.writeHead(200).end();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isResponse(message)) {
      if (isRequest(message)) {
        // Sampling, elicitation, roots: they need a stream to the client, which JSON answers do not have.
        throw new MemoryError(
          'PROVIDER_ERROR',
          `This server cannot send the request "${message.method}" to the client: it answers over plain JSON, without a server-to-client stream.`,
        );
      }
      // Notifications (progress, logging, list changes) have no stream to travel on either; the
      // spec lets a server that answers with JSON leave them out, and no tool here depends on them.
      return;
    }
    const id = message.id;
    const post = id === undefined ? undefined : this.pending.get(id);
    if (post === undefined || id === undefined) {
      // After close() every pending request was answered with an error, and the protocol layer
      // aborts the handlers; an error response without an id answers nothing to route.
      if (this.closed || id === undefined) return;
      throw new MemoryError(
        'PROVIDER_ERROR',
        `No open POST is waiting for the answer to request ${JSON.stringify(id)}.`,
      );
    }
    this.settle(post, id, message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Requests still running lose their session: their clients get an error, not a hanging POST.
    const error = new MemoryError(
      'SESSION_NOT_FOUND',
      'The MCP session was closed while this request ran; its outcome is unknown.',
    );
    for (const [id, post] of this.pending) {
      post.answers.set(id, JSON.parse(rpcErrorBody(error, RPC_SESSION_NOT_FOUND, id)) as JSONRPCMessage);
      if (post.answers.size === post.ids.length) this.answer(post);
    }
    this.pending.clear();
    this.onclose?.();
  }

  private deliver(message: JSONRPCMessage): void {
    if ('method' in message && message.method === 'notifications/cancelled' && !isRequest(message))
      this.answerCancelled(message.params?.requestId);
    const toolCalls = this.options.toolCalls;
    if (toolCalls !== undefined && isPlainToolCall(message))
      return this.runToolCall(message.id, message.params, toolCalls);
    this.onmessage?.(message);
  }

  /**
   * A plain tool call, run without the SDK's protocol layer: for one without `_meta` or `task` that
   * layer only calls the handler and sends `{ result, jsonrpc, id }` or the thrown error, but pays
   * an abort controller, a handler context of closures, four promise steps and three schema checks
   * of the message (two of them failing, each building a zod error) per request: 12–26 µs a call
   * in-process, 8–10 % of the server's CPU for a call answered from the caches. It is answered here
   * the same way; an answer whose request was cancelled, or whose session closed, meanwhile is
   * dropped, as the layer drops an aborted handler's.
   */
  private runToolCall(id: RequestId, params: unknown, toolCalls: (params: unknown) => Promise<unknown>): void {
    const post = this.pending.get(id);
    toolCalls(params)
      .then(
        (result) => ({ result, jsonrpc: '2.0', id }) as JSONRPCMessage,
        (error: unknown) => handlerErrorAnswer(id, error),
      )
      .then((message) => {
        if (post !== undefined && this.pending.get(id) === post) this.settle(post, id, message);
      })
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  /** Records the answer to one request of a POST; the POST is answered once all of its requests are. */
  private settle(post: PendingPost, id: RequestId, message: JSONRPCMessage): void {
    this.pending.delete(id);
    post.answers.set(id, message);
    if (post.answers.size === post.ids.length) this.answer(post);
  }

  /**
   * The SDK's protocol layer never answers a request the client cancelled (it aborts the handler
   * and drops its result); the POST would otherwise wait forever, so it is answered here.
   */
  private answerCancelled(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const post = this.pending.get(requestId);
    if (post === undefined) return;
    const error = new MemoryError('INVALID_INPUT', 'The request was cancelled by the client.');
    this.settle(post, requestId, JSON.parse(rpcErrorBody(error, RPC_SERVER_ERROR, requestId)) as JSONRPCMessage);
  }

  private answer(post: PendingPost): void {
    if (post.gone) return;
    const answers = post.ids.map((id) => post.answers.get(id)!);
    const body = JSON.stringify(post.batch ? answers : answers[0]);
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    post.response.writeHead(200, headers).end(body);
  }

  private checkSession(request: IncomingMessage): { status: number; rpcCode: number; error: MemoryError } | null {
    if (this.sessionId === undefined) {
      return {
        status: 400,
        rpcCode: RPC_SERVER_ERROR,
        error: new MemoryError('INVALID_INPUT', 'The MCP session is not initialized; send initialize first.'),
      };
    }
    if (request.headers['mcp-session-id'] !== this.sessionId) {
      return {
        status: 404,
        rpcCode: RPC_SESSION_NOT_FOUND,
        error: new MemoryError('SESSION_NOT_FOUND', 'Unknown MCP session id; initialize again.'),
      };
    }
    const version = request.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      return {
        status: 400,
        rpcCode: RPC_SERVER_ERROR,
        error: new MemoryError(
          'INVALID_INPUT',
          `Unsupported MCP protocol version "${String(version)}"; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
        ),
      };
    }
    return null;
  }
}

/**
 * The error answer the SDK's protocol layer makes of a request handler's thrown error: its integer
 * `code` (else internal error), its message and its `data` when it has one.
 */
function handlerErrorAnswer(id: RequestId, error: unknown): JSONRPCMessage {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      // Without an integer code, JSON-RPC's internal error, as the layer answers.
      code: Number.isSafeInteger(fields.code) ? (fields.code as number) : RPC_INTERNAL_ERROR,
      message: typeof fields.message === 'string' ? fields.message : 'Internal error',
      ...(fields.data !== undefined && { data: fields.data }),
    },
  };
}

function reject(response: ServerResponse, status: number, rpcCode: number, error: MemoryError): void {
  sendRpcError(response, status, rpcCode, error);
}
