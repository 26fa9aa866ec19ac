import type { ServerResponse } from 'node:http';
import { MemoryError, type MemoryErrorCode } from '../core/domain/errors.ts';

/**
 * Codes of the HTTP layer itself, beside the memory errors: a path or method that does not exist,
 * a body of the wrong media type, a request refused by the Host/Origin check.
 */
export type HttpOnlyErrorCode = 'FORBIDDEN' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'UNSUPPORTED_MEDIA_TYPE';
export type HttpErrorCode = MemoryErrorCode | HttpOnlyErrorCode;

/** A request refused before it reaches a route's own logic (guards, routing, media type). */
export interface HttpRejection {
  status: number;
  code: HttpErrorCode;
  message: string;
}

/**
 * The typed error every HTTP error carries, on every route: a memory error's own fields
 * (MemoryError.toJSON) or an HTTP rejection's, with `retryable` always present.
 */
export interface TypedError {
  code: HttpErrorCode;
  message: string;
  retryable: boolean;
  operation?: string;
  details?: Record<string, unknown>;
}

/** The body of an error on a route that is not JSON-RPC (the panel, OpenSpec, unknown paths). */
export interface RouteErrorBody {
  error: TypedError;
}

export function typedError(error: MemoryError | HttpRejection): TypedError {
  if (MemoryError.is(error)) return error.toJSON();
  return { code: error.code, message: error.message, retryable: false };
}

/** `{ "error": { code, message, retryable, operation?, details? } }` with the given status. */
export function sendRouteError(response: ServerResponse, status: number, error: MemoryError | HttpRejection): void {
  const body = JSON.stringify({ error: typedError(error) } satisfies RouteErrorBody);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

export type RpcId = string | number | null;

/**
 * The body of an error answering a JSON-RPC request: a JSON-RPC 2.0 error object whose data is
 * the same typed error the other routes send, so programs branch on one set of codes.
 */
export function rpcErrorBody(error: MemoryError | HttpRejection, rpcCode: number, id: RpcId = null): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code: rpcCode, message: error.message, data: typedError(error) },
  });
}

/** A JSON-RPC error body with an HTTP status, for requests refused before a JSON-RPC handler answers them. */
export function sendRpcError(
  response: ServerResponse,
  status: number,
  rpcCode: number,
  error: MemoryError | HttpRejection,
  id: RpcId = null,
): void {
  const body = rpcErrorBody(error, rpcCode, id);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}
