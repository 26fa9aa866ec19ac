import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryErrorCode } from '../../core/domain/errors.ts';
import { TransportError } from './httpTransport.ts';
import type { HttpResponse } from './httpTransport.ts';

/** The structured error entries Firebolt puts in `{"errors":[…]}`; only description is guaranteed. */
export interface FireboltErrorEntry {
  description?: string;
  name?: string;
  code?: string;
  severity?: string;
}

/**
 * Error details every Firebolt failure carries: the HTTP status (0 below HTTP), whether the
 * request may have reached the server, and the engine's error entries.
 */
export interface FireboltErrorDetails {
  status: number;
  delivered: boolean;
  retryable: boolean;
  firebolt_errors?: FireboltErrorEntry[];
  transport_code?: string;
  [key: string]: unknown;
}

function codeForStatus(status: number): MemoryErrorCode {
  if (status === 401 || status === 403) return 'UNAUTHORIZED';
  if (status === 429) return 'RATE_LIMITED';
  return 'PROVIDER_ERROR';
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function errorFromResponse(response: HttpResponse, operation: string): MemoryError {
  let entries: FireboltErrorEntry[] | undefined;
  try {
    const parsed = JSON.parse(response.body) as { errors?: FireboltErrorEntry[]; message?: string; error_description?: string };
    entries = parsed.errors ?? (parsed.message || parsed.error_description ? [{ description: parsed.message ?? parsed.error_description }] : undefined);
  } catch {
    // Not JSON (a proxy's error page, say): the raw text is the description.
    entries = response.body.trim() ? [{ description: response.body.trim().slice(0, 500) }] : undefined;
  }
  const description = entries?.map((entry) => entry.description ?? entry.name ?? 'unknown error').join('; ') ?? `HTTP ${response.status}`;
  const retryAfter = Number(response.headers['retry-after']);
  const error = new MemoryError(codeForStatus(response.status), `Firebolt ${operation} failed (HTTP ${response.status}): ${description}`, {
    operation,
    details: { status: response.status, delivered: true, retryable: isRetryableStatus(response.status), firebolt_errors: entries } satisfies FireboltErrorDetails,
  });
  return Number.isFinite(retryAfter) && retryAfter > 0 ? Object.assign(error, { retryAfterMs: retryAfter * 1000 }) : error;
}

export function errorFromTransport(error: TransportError, operation: string): MemoryError {
  return new MemoryError('PROVIDER_ERROR', `Firebolt ${operation} failed: ${error.message}`, {
    operation,
    cause: error,
    details: { status: 0, delivered: error.delivered, retryable: true, transport_code: error.code } satisfies FireboltErrorDetails,
  });
}

export function fireboltDetails(error: unknown): FireboltErrorDetails | undefined {
  if (!(error instanceof MemoryError) || error.details === undefined || typeof error.details.status !== 'number') return undefined;
  return error.details as FireboltErrorDetails;
}

/**
 * Retry rule: 429, 5xx and transport failures; but a request that may have been applied is
 * retried only when the statement is idempotent.
 */
export function shouldRetry(error: unknown, idempotent: boolean): boolean {
  const details = fireboltDetails(error);
  if (!details?.retryable) return false;
  if (details.status !== 0) return details.status === 429 || details.status === 503 || idempotent;
  return !details.delivered || idempotent;
}

export { TransportError };
