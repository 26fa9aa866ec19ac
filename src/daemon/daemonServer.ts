import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { AnchorChecker } from '../core/anchors/anchorChecker.ts';
import { MemoryError } from '../core/domain/errors.ts';
import type { MemoryCore } from '../core/memoryCore.ts';
import { startHttpServer, type RunningHttpServer } from '../http/httpServer.ts';
import { createStore } from '../runtime/createRuntime.ts';
import { nodeWorkspaceFiles } from '../runtime/nodeWorkspaceFiles.ts';
import type { BackendConfig } from '../runtime/runtimeConfig.ts';
import { copyStore, type CopyResult } from '../stores/copy/copyStore.ts';
import { dispatchCall } from './callDispatch.ts';
import { MAX_FRAME_CHARS, MAX_UNAUTHENTICATED_FRAME_CHARS, parseClientFrame } from './clientFrame.ts';
import { FrameError, FrameReader } from './frameReader.ts';
import { CoreRegistry } from './coreRegistry.ts';
import type { CoreSurface } from '../core/coreSurface.ts';
import type { DaemonAddress } from './daemonAddress.ts';
import {
  type ClientFrame,
  DAEMON_PROTOCOL_VERSION,
  type DaemonStatus,
  encodeFrame,
  type HelloAnswer,
  type ServerFrame,
  toWireError,
} from './daemonProtocol.ts';
import { acquireTakeoverLock } from './takeoverLock.ts';
import { requireWorkspaceDir } from './workspaceDir.ts';

export interface DaemonInfo {
  pid: number;
  socketPath: string;
  secret: string;
  protocol: number;
  startedAt: string;
}

export interface DaemonServerOptions {
  address: DaemonAddress;
  /** How long the process stays up after its last client left (a window reload reconnects within it). */
  graceMs: number;
  log: (line: string) => void;
  /** Called once the process should end (grace elapsed); the entry point exits. */
  onIdleExit: () => void;
}

interface Connection {
  socket: Socket;
  /** Set once the client's hello carried the secret: until then only a small hello is read. */
  authenticated: boolean;
  /** Copies this client started, by request id, so a cancel frame can stop them. */
  copies: Map<number, AbortController>;
  dataDir: string | null;
  coreKey: string | null;
  surface: CoreSurface | null;
  core: MemoryCore | null;
  userId: string | undefined;
  unsubscribe: (() => void) | null;
}

/**
 * The background memory process: one per user and data directory. Windows, the CLI and
 * benchmarks connect over a local socket (named pipe on Windows), open the core of their config
 * and call it; the store, its indexes and the MCP endpoints live here, off every editor thread.
 */
export class DaemonServer {
  private readonly registry: CoreRegistry;
  private readonly connections = new Set<Connection>();
  private readonly endpoints = new Map<string, Promise<RunningHttpServer & { token: string }>>();
  private server: Server | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly started = Date.now();

  private readonly options: DaemonServerOptions;

  constructor(options: DaemonServerOptions) {
    this.options = options;
    this.registry = new CoreRegistry({
      log: options.log,
      idleCloseMs: options.graceMs,
      beforeClose: (key) => this.closeEndpoints(key),
    });
  }

  /** Listens; false when another live process already owns the address (this one should exit). */
  async listen(): Promise<boolean> {
    const { socketPath, socketDir, infoFile } = this.options.address;
    if (socketDir !== null) preparePrivateDir(socketDir);
    mkdirSync(dirname(infoFile), { recursive: true, mode: 0o700 });
    const server = createServer((socket) => this.accept(socket));
    if (await tryListen(server, socketPath)) {
      this.bound(server);
      return true;
    }
    // Another starting process may be replacing the same dead socket: one at a time.
    const release = acquireTakeoverLock(`${infoFile}.takeover`);
    if (release === null) return false;
    try {
      return await this.takeOver(server);
    } finally {
      release();
    }
  }

  /** Listens in place of a killed process whose socket file is left; false when a live one answers. */
  private async takeOver(server: Server): Promise<boolean> {
    const { socketPath, socketDir } = this.options.address;
    if (await isAlive(socketPath)) return false;
    // A socket file left by a killed process: nobody answers on it, so it can go.
    if (socketDir !== null) rmSync(socketPath, { force: true });
    if (!(await tryListen(server, socketPath))) return false;
    // The info file is written before the lock is released, so no later process reads another's.
    this.bound(server);
    return true;
  }

  /** Listening on the address: make the socket private and publish how to reach this process. */
  private bound(server: Server): void {
    const { socketPath, socketDir, infoFile } = this.options.address;
    if (socketDir !== null) chmodSync(socketPath, 0o600);
    this.server = server;
    const info: DaemonInfo = {
      pid: process.pid,
      socketPath,
      secret: this.secret,
      protocol: DAEMON_PROTOCOL_VERSION,
      startedAt: new Date(this.started).toISOString(),
    };
    // Written whole then renamed, so a client never reads half of it.
    writeFileSync(`${infoFile}.${process.pid}`, `${JSON.stringify(info)}\n`, { mode: 0o600 });
    renameSync(`${infoFile}.${process.pid}`, infoFile);
    this.options.log(`listening on ${socketPath} (pid ${process.pid})`);
    this.armIdleTimer();
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const connection of this.connections) connection.socket.destroy();
    for (const endpoint of this.endpoints.values()) await (await endpoint).close();
    this.endpoints.clear();
    await this.registry.closeAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    rmSync(this.options.address.infoFile, { force: true });
  }

  private accept(socket: Socket): void {
    const connection: Connection = {
      socket,
      authenticated: false,
      copies: new Map(),
      dataDir: null,
      coreKey: null,
      surface: null,
      core: null,
      userId: undefined,
      unsubscribe: null,
    };
    this.connections.add(connection);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    socket.setEncoding('utf8');
    const reader = new FrameReader(
      (value) => this.receive(connection, value),
      () => (connection.authenticated ? MAX_FRAME_CHARS : MAX_UNAUTHENTICATED_FRAME_CHARS),
    );
    socket.on('data', (chunk: string) => {
      if (socket.destroyed) return;
      try {
        reader.push(chunk);
      } catch (error) {
        // Only this client is dropped; every other connection and the process go on.
        if (!(error instanceof FrameError)) throw error;
        this.options.log(`dropping a client: ${error.code}: ${error.message}`);
        socket.destroy();
      }
    });
    socket.on('error', (error) => this.options.log(`client socket error: ${error.message}`));
    socket.on('close', () => void this.drop(connection));
  }

  /** A decoded line: a valid frame is handled; anything else throws a FrameError and drops the client. */
  private receive(connection: Connection, value: unknown): void {
    const frame = parseClientFrame(value);
    if (!connection.authenticated && frame.op !== 'hello')
      throw new FrameError('FRAME_UNAUTHENTICATED', `"${frame.op}" before hello; only hello is answered first.`);
    this.handle(connection, frame).catch((error: unknown) =>
      this.options.log(
        `answering a frame failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
    );
  }

  private async handle(connection: Connection, frame: ClientFrame): Promise<void> {
    let answer: ServerFrame;
    try {
      answer = { id: frame.id, ok: true, value: await this.answer(connection, frame) };
    } catch (error) {
      if (!MemoryError.is(error))
        this.options.log(`call failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      answer = { id: frame.id, ok: false, error: toWireError(error) };
    }
    if (!connection.socket.destroyed) connection.socket.write(encodeFrame(answer));
  }

  private async answer(connection: Connection, frame: ClientFrame): Promise<unknown> {
    if (frame.op === 'status') return this.status();
    if (frame.op === 'hello') return this.hello(connection, frame.hello);
    if (connection.surface === null || connection.core === null || connection.coreKey === null)
      throw new MemoryError('INVALID_INPUT', 'Say hello (open a core) before calling it.');
    if (frame.op === 'call') return dispatchCall(connection.surface, frame.path, frame.args);
    if (frame.op === 'copy') return this.copy(connection, frame.id, frame.target, frame.userId);
    if (frame.op === 'cancel') {
      connection.copies.get(frame.request)?.abort();
      return null;
    }
    return this.endpoint(
      connection.coreKey,
      connection.core,
      frame.userId,
      frame.adminTools === true,
      requireWorkspaceDir(frame.workspaceDir),
    );
  }

  private async hello(
    connection: Connection,
    hello: Extract<ClientFrame, { op: 'hello' }>['hello'],
  ): Promise<HelloAnswer> {
    if (!sameSecret(hello.secret, this.secret)) {
      connection.socket.destroy();
      this.options.log('dropping a client that presented a wrong secret');
      throw new MemoryError('UNAUTHORIZED', 'Wrong daemon secret.');
    }
    connection.authenticated = true;
    if (connection.coreKey !== null) throw new MemoryError('INVALID_INPUT', 'This connection already opened a core.');
    const { key, core } = await this.registry.lease(hello.config, hello.userId);
    if (connection.socket.destroyed) {
      // The client left while the core opened: give the lease back at once.
      this.registry.release(key);
      throw new MemoryError('INVALID_INPUT', 'The client disconnected.');
    }
    connection.coreKey = key;
    connection.dataDir = hello.config.dataDir;
    connection.core = core;
    connection.surface = core;
    connection.userId = hello.userId;
    const subscription = core.onEvent((event) => {
      if (!connection.socket.destroyed) connection.socket.write(encodeFrame({ event }));
    });
    connection.unsubscribe = () => subscription.dispose();
    return {
      pid: process.pid,
      coreKey: key,
      defaultProjectId: core.defaultProjectId ?? null,
      layerDefaults: { ...core.layerDefaults },
      storeKind: core.backendKind,
      embeddingModel: core.embeddingModel,
    };
  }

  /**
   * Memory: Copy Local Memories to Firebolt, run here: the embedded store (a second connection to
   * its file) copied into the bare target store (no outbox: the copy must fail when Firebolt is away).
   */
  private async copy(
    connection: Connection,
    request: number,
    target: BackendConfig,
    userId: string,
  ): Promise<CopyResult> {
    if (target.kind === 'sqlite')
      throw new MemoryError(
        'INVALID_INPUT',
        'The copy goes from the embedded store to Firebolt; the target must be a Firebolt backend.',
      );
    const source = createStore({ kind: 'sqlite', dataDir: connection.dataDir! });
    const destination = createStore(target);
    const abort = new AbortController();
    connection.copies.set(request, abort);
    await source.open();
    try {
      await destination.open();
      try {
        return await copyStore(source, destination, {
          users: [userId],
          signal: abort.signal,
          onProgress: (value) => {
            if (!connection.socket.destroyed) connection.socket.write(encodeFrame({ progress: { request, value } }));
          },
        });
      } finally {
        await destination.close();
      }
    } finally {
      connection.copies.delete(request);
      await source.close();
    }
  }

  private endpoint(
    coreKey: string,
    core: MemoryCore,
    userId: string,
    adminTools: boolean,
    workspaceDir: string | null,
  ): Promise<{ mcpUrl: string; port: number; token: string }> {
    // One endpoint per tool set and workspace: windows that opt into the admin group get their own,
    // and so does each folder, whose files its agents' anchors are resolved in.
    const key = `${coreKey}\0${userId}\0${adminTools ? 'admin' : 'agent'}\0${workspaceDir ?? ''}`;
    let running = this.endpoints.get(key);
    if (running === undefined) {
      running = (async () => {
        const token = randomBytes(32).toString('base64url');
        const workspace =
          workspaceDir === null ? {} : { workspace: new AnchorChecker(nodeWorkspaceFiles(workspaceDir)) };
        // Agents call tools in bursts; the limit only stops a runaway client, never a normal session.
        const server = await startHttpServer(
          { core, defaultUserId: userId, adminTools, ...workspace },
          { port: 0, token, rateLimit: { perMinute: 6000, burst: 600 } },
        );
        this.options.log(
          `MCP endpoint for user ${userId}${workspaceDir === null ? '' : ` in ${workspaceDir}`} on ${server.mcpUrl}`,
        );
        return Object.assign(server, { token });
      })();
      this.endpoints.set(key, running);
      running.catch(() => this.endpoints.delete(key));
    }
    return running.then((server) => ({ mcpUrl: server.mcpUrl, port: server.port, token: server.token }));
  }

  private async closeEndpoints(coreKey: string): Promise<void> {
    for (const [key, endpoint] of this.endpoints) {
      if (!key.startsWith(`${coreKey}\0`)) continue;
      this.endpoints.delete(key);
      await (await endpoint).close();
    }
  }

  private status(): DaemonStatus {
    return {
      pid: process.pid,
      clients: this.connections.size,
      cores: this.registry.coreCount,
      stores: this.registry.storeCount,
      rssBytes: process.memoryUsage().rss,
      uptimeMs: Date.now() - this.started,
    };
  }

  private async drop(connection: Connection): Promise<void> {
    if (!this.connections.delete(connection)) return;
    connection.unsubscribe?.();
    // A window that went away cannot see its copy finish: stop it (running it again resumes).
    for (const copy of connection.copies.values()) copy.abort();
    // The core (and its MCP endpoint, which a reloading window finds again) stays for the grace period.
    if (connection.coreKey !== null) this.registry.release(connection.coreKey);
    this.armIdleTimer();
  }

  private armIdleTimer(): void {
    if (this.connections.size > 0 || this.idleTimer !== null) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.connections.size > 0) return;
      this.options.log(`no client for ${this.options.graceMs} ms: stopping`);
      this.options.onIdleExit();
    }, this.options.graceMs);
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function tryListen(server: Server, path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(path);
  });
}

/** Whether a process answers on the socket (a live daemon) or the file is stale. */
export function isAlive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** The socket directory must be ours and closed to others; a directory planted by someone else is refused. */
function preparePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stats = statSync(dir);
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `${dir} belongs to another user; the memory process will not listen there.`,
    );
  }
  if ((stats.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
