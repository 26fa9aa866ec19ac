import { MemoryError } from '../../core/domain/errors.ts';
import { CloudTokenSource, resolveSystemEngine } from './cloudAuth.ts';
import type { FireboltConfig } from './fireboltConfig.ts';
import { validateFireboltConfig } from './fireboltConfig.ts';
import {
  errorFromResponse,
  errorFromTransport,
  fireboltDetails,
  shouldRetry,
  TransportError,
} from './fireboltErrors.ts';
import type { FireboltErrorDetails } from './fireboltErrors.ts';
import { HttpTransport } from './httpTransport.ts';
import type { HttpResponse } from './httpTransport.ts';
import { inlineParameters } from './inlineParameters.ts';
import { encodeQueryParameters } from './queryParameters.ts';
import type { QueryParam } from './queryParameters.ts';
import { MAX_REQUEST_TARGET_BYTES } from './requestTarget.ts';
import { EMPTY_RESULT, parseJsonCompactDocument, resultFromDocument } from './resultParser.ts';
import type { FireboltResult } from './resultParser.ts';
import { DEFAULT_RETRY_POLICY, withRetry } from './retryPolicy.ts';
import type { RetryPolicy } from './retryPolicy.ts';
import { sqlIdentifier } from './sqlLiteral.ts';
import { WriteLock } from './writeLock.ts';
import { applyRemovals, applySessionHeaders } from './sessionHeaders.ts';

export interface QueryClientOptions {
  retry?: RetryPolicy;
  /** Per request; default 60 s. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface QueryOptions {
  /** Default: true unless the statement starts with SELECT or WITH. Writes are serialised. */
  write?: boolean;
  /** Safe to repeat if a first attempt may have been applied. Default: true for reads, false for writes. */
  idempotent?: boolean;
  /** Extra settings for this request's query string only (the Core vector-search switches). */
  settings?: Readonly<Record<string, string>>;
}

/** Runs statements inside one explicit transaction (BEGIN … COMMIT). */
export interface TransactionScope {
  query(sql: string, params?: readonly QueryParam[]): Promise<FireboltResult>;
}

const PROTOCOL_VERSION = '2.4';
const READ_STATEMENT = /^\s*(?:select|with)\b/iu;

/**
 * Settings Firebolt Core needs before it creates an HNSW index or runs VECTOR_SEARCH; Firebolt's
 * own Core client sends them (firebolt-memory-layer src/db/client.py). Cloud gets none: its
 * engines have vector search on, and an unknown setting may be refused there.
 */
const CORE_VECTOR_SETTINGS: Readonly<Record<string, string>> = {
  advanced_mode: '1',
  enable_vector_search_index_creation: '1',
  enable_vector_search_tvf: '1',
};

/**
 * A small client for Firebolt's HTTP query protocol, shared by Core and Cloud: one statement
 * per POST, settings and session state in the query string, values in `query_parameters`,
 * results as JSON_Compact. It replaces firebolt-sdk, whose published version cannot reach Core.
 */
export class FireboltQueryClient {
  readonly config: FireboltConfig;
  readonly #transport = new HttpTransport();
  readonly #lock = new WriteLock();
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #sleep: ((ms: number) => Promise<void>) | undefined;
  readonly #tokens: CloudTokenSource | null;
  #endpoint: URL;
  #session = new Map<string, string>();
  #connecting: Promise<void> | null = null;

  constructor(config: FireboltConfig, options: QueryClientOptions = {}) {
    this.config = validateFireboltConfig(config);
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#sleep = options.sleep;
    this.#tokens = config.kind === 'cloud' ? new CloudTokenSource(config, this.#transport, this.#timeoutMs) : null;
    this.#endpoint = config.kind === 'core' ? new URL(config.url) : new URL('http://unresolved.invalid/');
  }

  /** What to add to CREATE INDEX … HNSW and VECTOR_SEARCH requests on this backend. */
  get vectorSettings(): Readonly<Record<string, string>> {
    return this.config.kind === 'core' ? CORE_VECTOR_SETTINGS : {};
  }

  /** Core: creates the database if missing. Cloud: token, system engine, database, USE ENGINE. Idempotent. */
  connect(): Promise<void> {
    this.#connecting ??= this.#connect().catch((error: unknown) => {
      this.#connecting = null;
      throw error;
    });
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    const config = this.config;
    const database = sqlIdentifier(config.database);
    if (config.kind === 'core') {
      this.#session = new Map([['output_format', 'JSON_Compact']]);
      await this.#request(`CREATE DATABASE IF NOT EXISTS ${database}`, [], { write: true, idempotent: true }, null);
      this.#session.set('database', config.database);
      return;
    }
    const system = await withRetry(
      this.#retry,
      async () => resolveSystemEngine(config, this.#transport, await this.#tokens!.token(), this.#timeoutMs),
      (error) => shouldRetry(error, true),
      this.#sleep,
    );
    this.#endpoint = system.url;
    this.#session = new Map([...Object.entries(system.params), ['output_format', 'JSON_Compact']]);
    await this.#request(`CREATE DATABASE IF NOT EXISTS ${database}`, [], { write: true, idempotent: true }, null);
    await this.#request(`USE DATABASE ${database}`, [], { write: false, idempotent: true }, null);
    await this.#request(`USE ENGINE ${sqlIdentifier(config.engine)}`, [], { write: false, idempotent: true }, null);
  }

  async query(sql: string, params: readonly QueryParam[] = [], options: QueryOptions = {}): Promise<FireboltResult> {
    await this.connect();
    return this.#request(sql, params, options, null);
  }

  /**
   * Runs `work` in BEGIN … COMMIT while holding the write lock. Failures roll back; a failure
   * that happened before COMMIT and is retryable reruns the whole transaction, `work` included,
   * with backoff and the policy's attempt bound. A write conflict (another process committed
   * first under snapshot isolation; this process's own writes are serialised by the lock) is
   * retryable at any statement, COMMIT too, since the engine refused the transaction whole.
   */
  async transaction<T>(work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    await this.connect();
    return this.#lock.run(() =>
      withRetry(
        this.#retry,
        () => this.#runTransaction(work),
        (error) => !(error as { afterCommit?: boolean }).afterCommit && shouldRetry(error, true),
        this.#sleep,
      ),
    );
  }

  async #runTransaction<T>(work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const state = new Map<string, string>();
    const once = { write: false, idempotent: false, locked: true } as const;
    await this.#request('BEGIN TRANSACTION', [], once, state);
    if (!state.has('transaction_id')) {
      // Without the id every later statement would auto-commit on its own: no atomicity at all.
      throw new MemoryError(
        'PROVIDER_ERROR',
        'Firebolt answered BEGIN TRANSACTION without a transaction id (no Firebolt-Update-Parameters: transaction_id=…); refusing to run the writes outside a transaction.',
        {
          operation: 'query "BEGIN TRANSACTION"',
          details: { status: 200, delivered: true, retryable: false } satisfies FireboltErrorDetails,
        },
      );
    }
    let result: T;
    try {
      result = await work({ query: (sql, params = []) => this.#request(sql, params, once, state) });
    } catch (error) {
      throw await this.#rollbackAfter(error, state);
    }
    try {
      await this.#request('COMMIT', [], once, state);
    } catch (error) {
      // Firebolt keeps a transaction whose COMMIT failed open and aborted until ROLLBACK names it.
      const settled = await this.#rollbackAfter(error, state);
      // A COMMIT that may have landed must not be replayed; one refused for a conflict did not land.
      const details = fireboltDetails(error);
      throw Object.assign(settled as object, {
        afterCommit: details?.delivered !== false && details?.conflict !== true,
      });
    }
    return result;
  }

  /**
   * Ends a failed transaction with ROLLBACK, unless the server already dropped its id (a
   * Firebolt-Remove-Parameters on the error response). Returns the error to throw: the original,
   * or one that also reports a failed rollback.
   */
  async #rollbackAfter(error: unknown, state: Map<string, string>): Promise<unknown> {
    if (!state.has('transaction_id')) return error;
    try {
      await this.#request('ROLLBACK', [], { write: false, idempotent: false, locked: true }, state);
      return error;
    } catch (rollbackError) {
      return Object.assign(
        new MemoryError(
          'PROVIDER_ERROR',
          `${(error as Error).message}; the rollback failed too: ${(rollbackError as Error).message}`,
          {
            cause: error,
            details: fireboltDetails(error),
          },
        ),
        { afterCommit: (error as { afterCommit?: boolean }).afterCommit },
      );
    }
  }

  async #request(
    sql: string,
    params: readonly QueryParam[],
    options: QueryOptions & { locked?: boolean },
    transaction: Map<string, string> | null,
  ): Promise<FireboltResult> {
    const write = options.write ?? !READ_STATEMENT.test(sql);
    const idempotent = options.idempotent ?? !write;
    const settings = options.settings ?? {};
    const attempt = (): Promise<FireboltResult> =>
      transaction
        ? this.#post(sql, params, transaction, settings)
        : withRetry(
            this.#retry,
            () => this.#post(sql, params, transaction, settings),
            (error) => shouldRetry(error, idempotent),
            this.#sleep,
          );
    return write && !options.locked ? this.#lock.run(attempt) : attempt();
  }

  async #post(
    sql: string,
    params: readonly QueryParam[],
    transaction: Map<string, string> | null,
    settings: Readonly<Record<string, string>>,
  ): Promise<FireboltResult> {
    const url = new URL(this.#endpoint);
    for (const [key, value] of this.#session) url.searchParams.set(key, value);
    for (const [key, value] of Object.entries(settings)) url.searchParams.set(key, value);
    for (const [key, value] of transaction ?? []) url.searchParams.set(key, value);
    let body = sql;
    if (params.length > 0) {
      url.searchParams.set('query_parameters', encodeQueryParameters(params));
      if (Buffer.byteLength(url.pathname + url.search) > MAX_REQUEST_TARGET_BYTES) {
        // Too long for a request line: the values travel in the body as audited literals instead.
        url.searchParams.delete('query_parameters');
        body = inlineParameters(sql, params);
      }
    }
    const operation = describe(sql);
    const response = await this.#send(url, body, operation, true);
    if (response.status >= 300) {
      // An error can end server-side state too (a transaction the engine dropped): honour removals.
      applyRemovals(response, this.#session, transaction);
      throw errorFromResponse(response, operation);
    }
    this.#endpoint = applySessionHeaders(response, this.#session, transaction, this.#endpoint);
    if (response.body.trim() === '') return EMPTY_RESULT;
    const document = parseJsonCompactDocument(response.body);
    // Firebolt may also report a failed statement in a 200 body.
    if (Array.isArray(document.errors) && document.errors.length > 0)
      throw errorFromResponse({ ...response, status: 400 }, operation);
    return resultFromDocument(document);
  }

  async #send(url: URL, sql: string, operation: string, mayReauthenticate: boolean): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      'Content-Type': 'text/plain; charset=utf-8',
      'Firebolt-Protocol-Version': PROTOCOL_VERSION,
      'User-Agent': 'firebolt-memory-layer',
    };
    if (this.#tokens) headers.Authorization = `Bearer ${await this.#tokens.token()}`;
    let response: HttpResponse;
    try {
      response = await this.#transport.send({ method: 'POST', url, headers, body: sql, timeoutMs: this.#timeoutMs });
    } catch (error) {
      throw error instanceof TransportError ? errorFromTransport(error, operation) : error;
    }
    if (this.#tokens && mayReauthenticate && (response.status === 401 || response.status === 403)) {
      this.#tokens.invalidate();
      return this.#send(url, sql, operation, false);
    }
    return response;
  }

  close(): void {
    this.#transport.close();
  }
}

/** First words of a statement, for error messages (never its parameter values). */
function describe(sql: string): string {
  return `query "${sql.trim().split(/\s+/u).slice(0, 3).join(' ')}"`;
}
