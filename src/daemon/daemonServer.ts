import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';
import { dispatchCall } from './callDispatch.ts';
import { MAX_FRAME_CHARS, MAX_UNAUTHENTICATED_FRAME_CHARS, parseClientFrame } from './clientFrame.ts';
import { FrameError, FrameReader } from './frameReader.ts';
import { CoreRegistry } from './coreRegistry.ts';
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
import type { Connection } from './clientConnection.ts';
import { McpEndpoints } from './mcpEndpoints.ts';
import { isAlive, preparePrivateDir, sameSecret, tryListen } from './socketFiles.ts';
import { copyToFirebolt } from './storeCopy.ts';
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

/**
 * The background memory process: one per user and data directory. Windows, the CLI and
 * benchmarks connect over a local socket (named pipe on Windows), open the core of their config
 * and call it; the store, its indexes and the MCP endpoints live here, off every editor thread.
 */
export class DaemonServer {
  private readonly registry: CoreRegistry;
  private readonly connections = new Set<Connection>();
  private readonly endpoints: McpEndpoints;
  private server: Server | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly started = Date.now();

  private readonly options: DaemonServerOptions;

  constructor(options: DaemonServerOptions) {
    this.options = options;
    this.endpoints = new McpEndpoints(options.log);
    this.registry = new CoreRegistry({
      log: options.log,
      idleCloseMs: options.graceMs,
      beforeClose: (key) => this.endpoints.closeFor(key),
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
    await this.endpoints.closeAll();
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
    if (frame.op === 'copy') return copyToFirebolt(connection, frame.id, frame.target, frame.userId);
    if (frame.op === 'cancel') {
      connection.copies.get(frame.request)?.abort();
      return null;
    }
    return this.endpoints.open(
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
