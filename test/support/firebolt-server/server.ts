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
import { parseQueryParameters } from './queryParameters.ts';
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
  /** The next query requests are answered with these HTTP statuses (429, 503, …) before normal service resumes. */
  failNextQueries(statuses: readonly number[]): void;
  /** Cloud mode: every issued access token stops working (clients must re-authenticate). */
  revokeTokens(): void;
  /** Every request received, in order, for protocol assertions. */
  readonly requests: RecordedRequest[];
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
  const faults: number[] = [];
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

  const handleQuery = (request: RecordedRequest, enginePath: 'core' | 'system' | 'engine'): { status: number; headers: Record<string, string>; body: string; contentType?: string } => {
    const started = performance.now();
    const sql = request.body;
    if (sql.trim() === '') throw new FireboltServerError(400, 'SyntaxError', 'empty query');
    const databaseName = request.params.database ?? (enginePath === 'core' ? DEFAULT_DATABASE : undefined);
    const database = databaseName === undefined ? undefined : knownDatabase(databaseName);
    const plan = translateStatement(sql, {
      vectorSearchEnabled,
      vectorIndex: (name) => database?.vectorIndex(name),
    });
    const headers: Record<string, string> = {};
    if (plan.kind === 'createDatabase' || plan.kind === 'dropDatabase') {
      if (!DATABASE_NAME.test(plan.name)) throw new FireboltServerError(400, 'InvalidName', `invalid database name "${plan.name}"`);
      const exists = knownDatabase(plan.name) !== undefined;
      if (plan.kind === 'createDatabase') {
        if (exists && !plan.ifNotExists) throw new FireboltServerError(400, 'DatabaseExists', `database "${plan.name}" already exists`);
        openDatabase(plan.name);
      } else {
        if (!exists && !plan.ifExists) throw new FireboltServerError(400, 'UnknownDatabase', `database "${plan.name}" does not exist`);
        databases.get(plan.name)?.close();
        databases.delete(plan.name);
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${databaseFile(plan.name)}${suffix}`, { force: true });
      }
      return { status: 200, headers, body: '' };
    }
    if (plan.kind === 'useDatabase') {
      if (!knownDatabase(plan.name)) throw new FireboltServerError(400, 'UnknownDatabase', `database "${plan.name}" does not exist`);
      return { status: 200, headers: { 'Firebolt-Update-Parameters': `database=${plan.name}` }, body: '' };
    }
    if (plan.kind === 'useEngine') {
      if (!options.cloud) throw new FireboltServerError(400, 'UnsupportedSyntax', 'USE ENGINE is not available on Firebolt Core');
      if (plan.name !== options.cloud.engine) throw new FireboltServerError(400, 'UnknownEngine', `engine "${plan.name}" does not exist`);
      const endpoint = `${baseUrl}/engines/${encodeURIComponent(plan.name)}?engine=${encodeURIComponent(plan.name)}&account_id=${encodeURIComponent(options.cloud.accountId)}`;
      return { status: 200, headers: { 'Firebolt-Update-Endpoint': endpoint }, body: '' };
    }
    if (enginePath === 'system') {
      throw new FireboltServerError(400, 'SystemEngine', 'the system engine runs only database and engine management statements; USE ENGINE first');
    }
    if (!database) {
      throw new FireboltServerError(400, 'UnknownDatabase', databaseName === undefined ? 'no database selected' : `database "${databaseName}" does not exist`);
    }
    const params = parseQueryParameters(request.params.query_parameters);
    const outcome = database.execute(plan, params, request.params.transaction_id);
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
      params: Object.fromEntries(url.searchParams),
      headers: { ...incoming.headers },
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    const send = (status: number, body: string, headers: Record<string, string> = {}, contentType?: string): void => {
      response.writeHead(status, { ...headers, ...(contentType ? { 'Content-Type': contentType } : {}) });
      response.end(body);
    };
    const sendError = (error: FireboltServerError): void => send(error.status, JSON.stringify(error.toBody()), {}, 'application/json');
    try {
      if (options.cloud) {
        const cloud = cloudRoute(request, options.cloud, baseUrl);
        if (cloud.kind === 'response') return send(cloud.status, JSON.stringify(cloud.body), {}, 'application/json');
        if (cloud.kind === 'unauthorized') throw new FireboltServerError(401, 'Unauthorized', 'missing or invalid access token');
      }
      const enginePath = !options.cloud ? 'core' : request.path === '/query' ? 'system' : 'engine';
      const pathOk = options.cloud ? enginePath === 'system' || request.path === `/engines/${encodeURIComponent(options.cloud.engine)}` : request.path === '/';
      if (request.method !== 'POST' || !pathOk) throw new FireboltServerError(404, 'NotFound', `no endpoint ${request.method} ${request.path}`);
      const fault = faults.shift();
      if (fault !== undefined) throw new FireboltServerError(fault, 'InjectedFault', FAULT_MESSAGES[fault] ?? `HTTP ${fault}`);
      const answer = handleQuery(request, enginePath);
      send(answer.status, answer.body, answer.headers, answer.contentType);
    } catch (error) {
      if (error instanceof FireboltServerError) return sendError(error);
      sendError(new FireboltServerError(500, 'InternalError', error instanceof Error ? error.message : String(error)));
    }
  };

  // Parameters travel in the query string; 64 KB of request line and headers is this server's limit (real Firebolt's is unknown).
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (incoming, response) => void handle(incoming, response));
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
    failNextQueries(statuses) {
      faults.push(...statuses);
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
