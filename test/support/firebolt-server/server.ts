import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloudRoute, revokeTokens } from './cloudEndpoints.ts';
import type { CloudAccount } from './cloudEndpoints.ts';
import { renderResult } from './outputFormats.ts';
import { checkParameterTypes } from './parameterTyping.ts';
import { parseQueryParameters, parseRawParameters } from './queryParameters.ts';
import { FireboltServerError } from './serverErrors.ts';
import { translateStatement } from './statementTranslator.ts';
import { FireboltTestDatabase } from './testDatabase.ts';

export interface FireboltTestServerOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Where database files live; absent: a temporary directory removed on close. */
  dataDir?: string;
  /** Enables the Cloud endpoints and requires a bearer token on every query. */
  cloud?: CloudAccount;
  /** False emulates an engine without HNSW / VECTOR_SEARCH. Default true. */
  vectorSearch?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The raw request target (path and query string) as it was on the request line. */
  target: string;
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FireboltTestServer {
  url: string;
  close(): Promise<void>;
  /** Stops listening and drops open connections: clients see connection refused until resume(). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /**
   * The next query requests are answered with these HTTP statuses (429, 503, …) before normal
   * service resumes; with `matching`, only requests whose SQL matches it count.
   */
  failNextQueries(statuses: readonly number[], matching?: RegExp): void;
  /** Cloud mode: every issued access token stops working (clients must re-authenticate). */
  revokeTokens(): void;
  /** The next COMMITs fail with these statuses (409: a conflict); each such transaction stays open and aborted until ROLLBACK. */
  failNextCommits(statuses: readonly number[]): void;
  /** Explicit transactions still open in every database (a client that forgets ROLLBACK leaves one here). */
  openTransactions(): number;
  /** Every request received, in order, for protocol assertions. */
  readonly requests: RecordedRequest[];
}

/**
 * Longest request target (path and query string) accepted, in bytes. Firebolt documents none;
 * gateways in front of it commonly stop at 8–16 KB (nginx: 8 KB large_client_header_buffers),
 * so the server refuses more than 8 KB with 414 as such a gateway would.
 */
export const REQUEST_TARGET_LIMIT = 8192;

/** What Firebolt Core needs in the query string before it creates an HNSW index or runs VECTOR_SEARCH (firebolt-memory-layer src/db/client.py). */
const INDEX_CREATION_SETTINGS = ['advanced_mode', 'enable_vector_search_index_creation'];
const VECTOR_SEARCH_SETTINGS = ['advanced_mode', 'enable_vector_search_tvf'];

function requireSettings(params: Record<string, string>, names: readonly string[], what: string): void {
  const missing = names.filter((name) => params[name] !== '1' && params[name]?.toLowerCase() !== 'true');
  if (missing.length > 0) {
    throw new FireboltServerError(
      400,
      'FeatureDisabled',
      `${what} is disabled on this engine; enable it with ${missing.map((name) => `${name}=1`).join(', ')}`,
    );
  }
}

const DEFAULT_DATABASE = 'firebolt';
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/u;

const FAULT_MESSAGES: Record<number, string> = {
  429: 'Account system engine resources usage limit exceeded',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable: the engine is starting',
};

export async function startFireboltTestServer(options: FireboltTestServerOptions = {}): Promise<FireboltTestServer> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'firebolt-test-server-'));
  mkdirSync(dataDir, { recursive: true });
  const databases = new Map<string, FireboltTestDatabase>();
  const faults: { status: number; matching: RegExp | undefined }[] = [];
  const commitFaults: number[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const vectorSearchEnabled = options.vectorSearch ?? true;
  let baseUrl = '';

  const databaseFile = (name: string): string => join(dataDir, `${name}.sqlite`);
  const openDatabase = (name: string): FireboltTestDatabase => {
    let database = databases.get(name);
    if (!database) {
      database = new FireboltTestDatabase(name, databaseFile(name));
      databases.set(name, database);
    }
    return database;
  };
  const knownDatabase = (name: string): FireboltTestDatabase | undefined => {
    if (databases.has(name)) return databases.get(name);
    return DATABASE_NAME.test(name) && existsSync(databaseFile(name)) ? openDatabase(name) : undefined;
  };
  openDatabase(DEFAULT_DATABASE);

  const handleQuery = (
    request: RecordedRequest,
    enginePath: 'core' | 'system' | 'engine',
  ): { status: number; headers: Record<string, string>; body: string; contentType?: string } => {
    const started = performance.now();
    const sql = request.body;
    if (sql.trim() === '') throw new FireboltServerError(400, 'SyntaxError', 'empty query');
    const databaseName = request.params.database ?? (enginePath === 'core' ? DEFAULT_DATABASE : undefined);
    const database = databaseName === undefined ? undefined : knownDatabase(databaseName);
    // Cloud engines have vector search on; Core gates it behind settings.
    const coreGate = (names: readonly string[], what: string) => (): void => {
      if (enginePath === 'core') requireSettings(request.params, names, what);
    };
    const plan = translateStatement(sql, {
      vectorSearchEnabled,
      vectorIndex: (name) => database?.vectorIndex(name),
      hasColumn: (table, column) => database?.hasColumn(table, column) ?? false,
      checkVectorSearch: (table) => {
        coreGate(VECTOR_SEARCH_SETTINGS, 'VECTOR_SEARCH')();
        // Firebolt 4.28 fails VECTOR_SEARCH on an empty table (firebolt-memory-layer checks for rows first); a runtime error, so 500.
        if (database && !database.hasRows(table, request.params.transaction_id)) {
          throw new FireboltServerError(
            500,
            'VectorSearchError',
            `vector_search cannot run on table "${table}": the table is empty`,
          );
        }
      },
    });
    if (plan.kind === 'createVectorIndex') coreGate(INDEX_CREATION_SETTINGS, 'vector search index creation')();
    const headers: Record<string, string> = {};
    if (plan.kind === 'createDatabase' || plan.kind === 'dropDatabase') {
      if (!DATABASE_NAME.test(plan.name))
        throw new FireboltServerError(400, 'InvalidName', `invalid database name "${plan.name}"`);
      const exists = knownDatabase(plan.name) !== undefined;
      if (plan.kind === 'createDatabase') {
        if (exists && !plan.ifNotExists)
          throw new FireboltServerError(400, 'DatabaseExists', `database "${plan.name}" already exists`);
        openDatabase(plan.name);
      } else {
        if (!exists && !plan.ifExists)
          throw new FireboltServerError(400, 'UnknownDatabase', `database "${plan.name}" does not exist`);
        databases.get(plan.name)?.close();
        databases.delete(plan.name);
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${databaseFile(plan.name)}${suffix}`, { force: true });
      }
      return { status: 200, headers, body: '' };
    }
    if (plan.kind === 'useDatabase') {
      if (!knownDatabase(plan.name))
        throw new FireboltServerError(400, 'UnknownDatabase', `database "${plan.name}" does not exist`);
      return { status: 200, headers: { 'Firebolt-Update-Parameters': `database=${plan.name}` }, body: '' };
    }
    if (plan.kind === 'useEngine') {
      if (!options.cloud)
        throw new FireboltServerError(400, 'UnsupportedSyntax', 'USE ENGINE is not available on Firebolt Core');
      if (plan.name !== options.cloud.engine)
        throw new FireboltServerError(400, 'UnknownEngine', `engine "${plan.name}" does not exist`);
      // Real Cloud sends a host without a scheme (the JDBC driver: "server never returns it").
      const endpoint = `${new URL(baseUrl).host}/engines/${encodeURIComponent(plan.name)}?engine=${encodeURIComponent(plan.name)}&account_id=${encodeURIComponent(options.cloud.accountId)}`;
      return { status: 200, headers: { 'Firebolt-Update-Endpoint': endpoint }, body: '' };
    }
    if (enginePath === 'system') {
      throw new FireboltServerError(
        400,
        'SystemEngine',
        'the system engine runs only database and engine management statements; USE ENGINE first',
      );
    }
    if (!database) {
      throw new FireboltServerError(
        400,
        'UnknownDatabase',
        databaseName === undefined ? 'no database selected' : `database "${databaseName}" does not exist`,
      );
    }
    const raw = parseRawParameters(request.params.query_parameters);
    if (plan.kind === 'sql') checkParameterTypes(sql, raw);
    const params = parseQueryParameters(request.params.query_parameters);
    const outcome = database.execute(
      plan,
      params,
      request.params.transaction_id,
      plan.kind === 'commit' ? commitFaults.shift() : undefined,
    );
    Object.assign(headers, outcome.headers);
    if (!outcome.result) return { status: 200, headers, body: '' };
    const rendered = renderResult(request.params.output_format ?? 'TabSeparatedWithNamesAndTypes', outcome.result, {
      queryId: randomUUID(),
      requestId: randomUUID(),
      queryLabel: request.params.query_label ?? null,
      elapsedSeconds: (performance.now() - started) / 1000,
      rowsRead: outcome.rowsRead,
    });
    return { status: 200, headers, body: rendered.body, contentType: rendered.contentType };
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(incoming.url ?? '/', baseUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      target: incoming.url ?? '/',
      params: Object.fromEntries(url.searchParams),
      headers: { ...incoming.headers },
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    const send = (status: number, body: string, headers: Record<string, string> = {}, contentType?: string): void => {
      response.writeHead(status, { ...headers, ...(contentType ? { 'Content-Type': contentType } : {}) });
      response.end(body);
    };
    const sendError = (error: FireboltServerError): void =>
      send(error.status, JSON.stringify(error.toBody()), {}, 'application/json');
    try {
      if (options.cloud) {
        const cloud = cloudRoute(request, options.cloud, baseUrl);
        if (cloud.kind === 'response') return send(cloud.status, JSON.stringify(cloud.body), {}, 'application/json');
        if (cloud.kind === 'unauthorized')
          throw new FireboltServerError(401, 'Unauthorized', 'missing or invalid access token');
      }
      const enginePath = !options.cloud ? 'core' : request.path === '/query' ? 'system' : 'engine';
      const pathOk = options.cloud
        ? enginePath === 'system' || request.path === `/engines/${encodeURIComponent(options.cloud.engine)}`
        : request.path === '/';
      if (request.method !== 'POST' || !pathOk)
        throw new FireboltServerError(404, 'NotFound', `no endpoint ${request.method} ${request.path}`);
      const target = Buffer.byteLength(request.target);
      if (target > REQUEST_TARGET_LIMIT)
        throw new FireboltServerError(
          414,
          'UriTooLong',
          `request target of ${target} bytes exceeds ${REQUEST_TARGET_LIMIT}; send large values in the body`,
        );
      const faultAt = faults.findIndex((fault) => fault.matching === undefined || fault.matching.test(request.body));
      if (faultAt >= 0) {
        const [{ status }] = faults.splice(faultAt, 1);
        throw new FireboltServerError(status, 'InjectedFault', FAULT_MESSAGES[status] ?? `HTTP ${status}`);
      }
      const answer = handleQuery(request, enginePath);
      send(answer.status, answer.body, answer.headers, answer.contentType);
    } catch (error) {
      if (error instanceof FireboltServerError) return sendError(error);
      sendError(new FireboltServerError(500, 'InternalError', error instanceof Error ? error.message : String(error)));
    }
  };

  // Node's own header limit stays generous so the 414 above, not a dropped socket, reports a long request target.
  const server: Server = createServer(
    { maxHeaderSize: 64 * 1024 },
    (incoming, response) => void handle(incoming, response),
  );
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const stopListening = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  const port = await listen(options.port ?? 0);
  baseUrl = `http://127.0.0.1:${port}`;
  let listening = true;

  return {
    url: baseUrl,
    requests,
    failNextQueries(statuses, matching) {
      faults.push(...statuses.map((status) => ({ status, matching })));
    },
    failNextCommits(statuses) {
      commitFaults.push(...statuses);
    },
    openTransactions() {
      let open = 0;
      for (const database of databases.values()) open += database.openTransactions;
      return open;
    },
    revokeTokens() {
      if (options.cloud) revokeTokens(options.cloud);
    },
    async pause() {
      if (!listening) return;
      listening = false;
      await stopListening();
    },
    async resume() {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    async close() {
      if (listening) await stopListening();
      listening = false;
      for (const database of databases.values()) database.close();
      databases.clear();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
