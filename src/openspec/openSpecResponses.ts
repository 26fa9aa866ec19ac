import type { ServerResponse } from 'node:http';
import { MemoryError, type MemoryErrorCode } from '../core/domain/errors.ts';
import { sendRouteError } from '../http/httpErrors.ts';
import { storedTextJson } from '../core/api/storedText.ts';

/** HTTP status of each seed 001 error code; the body always carries the code itself. */
const STATUS: Record<MemoryErrorCode, number> = {
  INVALID_INPUT: 400,
  INVALID_LAYER: 400,
  MISSING_IDENTIFIER: 400,
  CONTENT_TOO_LONG: 413,
  QUERY_TOO_LONG: 400,
  CONFIRMATION_REQUIRED: 400,
  MEMORY_NOT_FOUND: 404,
  CONFLICT: 409,
  SESSION_NOT_FOUND: 404,
  UNAUTHORIZED: 403,
  RATE_LIMITED: 429,
  EMBEDDING_FAILED: 502,
  PROVIDER_ERROR: 502,
  STORAGE_FULL: 507,
  STORAGE_READ_ONLY: 503,
  CONFIGURATION_ERROR: 500,
};

export function statusOf(code: MemoryErrorCode): number {
  return STATUS[code];
}

/** OpenSpec bodies are read by agents: the stored text in them is marked as in every MCP answer (issue 28.7). */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(storedTextJson(body));
}

/** Any failure as a seed 001 MemoryError body (code, message, operation, retryable, details). */
export function asMemoryError(error: unknown, operation: string): MemoryError {
  if (MemoryError.is(error)) return error.inOperation(operation);
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryError('PROVIDER_ERROR', `The memory backend failed: ${message}`, { cause: error, operation });
}

export function sendMemoryError(response: ServerResponse, error: MemoryError): void {
  if (error.code === 'RATE_LIMITED' && typeof error.details?.retry_after === 'number')
    response.setHeader('Retry-After', String(error.details.retry_after));
  sendRouteError(response, statusOf(error.code), error);
}
