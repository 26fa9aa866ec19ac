/**
 * Error codes of seed 001 §Error Handling, plus the ones the MCP surface needs
 * (INVALID_INPUT for validation, SESSION_NOT_FOUND, CONFIRMATION_REQUIRED, STORAGE_* for the local disk).
 */
export type MemoryErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_LAYER'
  | 'MISSING_IDENTIFIER'
  | 'MEMORY_NOT_FOUND'
  /** A change stated the version it read, and the memory has changed since (retryable: false; read it again). */
  | 'CONFLICT'
  | 'SESSION_NOT_FOUND'
  | 'CONTENT_TOO_LONG'
  | 'QUERY_TOO_LONG'
  | 'CONFIRMATION_REQUIRED'
  | 'EMBEDDING_FAILED'
  | 'PROVIDER_ERROR'
  | 'STORAGE_FULL'
  | 'STORAGE_READ_ONLY'
  | 'RATE_LIMITED'
  | 'UNAUTHORIZED'
  | 'CONFIGURATION_ERROR';

const RETRYABLE: ReadonlySet<MemoryErrorCode> = new Set([
  'EMBEDDING_FAILED',
  'PROVIDER_ERROR',
  'RATE_LIMITED',
  'STORAGE_FULL',
]);

export interface MemoryErrorOptions {
  details?: Record<string, unknown>;
  cause?: unknown;
  operation?: string;
}

/** The one error type the core throws; callers branch on `code`, never on the message. */
export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly operation: string | undefined;

  constructor(code: MemoryErrorCode, message: string, options: MemoryErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'MemoryError';
    this.code = code;
    this.details = options.details;
    this.operation = options.operation;
  }

  /**
   * This error as seen by `operation` (seed 001: every error names the operation that failed).
   * An operation already named is kept: it is the innermost, most precise one.
   */
  inOperation(operation: string): MemoryError {
    if (this.operation !== undefined) return this;
    const named = new MemoryError(this.code, this.message, { details: this.details, cause: this.cause, operation });
    named.stack = this.stack;
    return named;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  static is(value: unknown, code?: MemoryErrorCode): value is MemoryError {
    return value instanceof MemoryError && (code === undefined || value.code === code);
  }

  toJSON(): {
    code: MemoryErrorCode;
    message: string;
    retryable: boolean;
    operation?: string;
    details?: Record<string, unknown>;
  } {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.operation ? { operation: this.operation } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }
}
