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
  /** The engine refused the statement or transaction because a concurrent one wrote first: nothing was applied. */
  conflict?: boolean;
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

/**
 * A write conflict under snapshot isolation (firebolt.md §2.5: concurrent writers to the same rows
 * fail with a conflict). Firebolt's exact status and code for it are unknown (§2.4), so both the
 * test server's 409 and an error that names a conflict count. A conflict is a refusal: the
 * statement, or the transaction it belonged to, did not take effect and can be run again whole.
 */
export function isConflictResponse(status: number, entries: readonly FireboltErrorEntry[] | undefined): boolean {
  if (status === 409) return true;
  return (
    status >= 400 &&
    (entries ?? []).some((entry) => /conflict/iu.test(`${entry.name ?? ''} ${entry.description ?? ''}`))
  );
}

export function errorFromResponse(response: HttpResponse, operation: string): MemoryError {
  let entries: FireboltErrorEntry[] | undefined;
  try {
    const parsed = JSON.parse(response.body) as {
      errors?: FireboltErrorEntry[];
      message?: string;
      error_description?: string;
    };
    entries =
      parsed.errors ??
      (parsed.message || parsed.error_description
        ? [{ description: parsed.message ?? parsed.error_description }]
        : undefined);
  } catch {
    // Not JSON (a proxy's error page, say): the raw text is the description.
    entries = response.body.trim() ? [{ description: response.body.trim().slice(0, 500) }] : undefined;
  }
  const description =
    entries?.map((entry) => entry.description ?? entry.name ?? 'unknown error').join('; ') ?? `HTTP ${response.status}`;
  const retryAfter = Number(response.headers['retry-after']);
  const conflict = isConflictResponse(response.status, entries);
  const error = new MemoryError(
    codeForStatus(response.status),
    `Firebolt ${operation} failed (HTTP ${response.status}): ${description}`,
    {
      operation,
      details: {
        status: response.status,
        delivered: true,
        retryable: conflict || isRetryableStatus(response.status),
        ...(conflict ? { conflict } : {}),
        firebolt_errors: entries,
      } satisfies FireboltErrorDetails,
    },
  );
  return Number.isFinite(retryAfter) && retryAfter > 0
    ? Object.assign(error, { retryAfterMs: retryAfter * 1000 })
    : error;
}

export function errorFromTransport(error: TransportError, operation: string): MemoryError {
  return new MemoryError('PROVIDER_ERROR', `Firebolt ${operation} failed: ${error.message}`, {
    operation,
    cause: error,
    details: {
      status: 0,
      delivered: error.delivered,
      retryable: true,
      transport_code: error.code,
    } satisfies FireboltErrorDetails,
  });
}

export function fireboltDetails(error: unknown): FireboltErrorDetails | undefined {
  if (!(error instanceof MemoryError) || error.details === undefined || typeof error.details.status !== 'number')
    return undefined;
  return error.details as FireboltErrorDetails;
}

/**
 * Retry rule: 429, 5xx, write conflicts and transport failures; but a request that may have been
 * applied is retried only when the statement is idempotent (a conflict was not applied).
 */
export function shouldRetry(error: unknown, idempotent: boolean): boolean {
  const details = fireboltDetails(error);
  if (!details?.retryable) return false;
  if (details.conflict) return true;
  if (details.status !== 0) return details.status === 429 || details.status === 503 || idempotent;
  return !details.delivered || idempotent;
}

export { TransportError };
