import { type Logger, stderrLogger } from '../core/ports/logger.ts';
import { createConnection, type Socket } from 'node:net';
import type { MemoryEvent } from '../core/memoryEvents.ts';
import type { BackendConfig } from '../runtime/runtimeConfig.ts';
import type { CopyProgress, CopyResult } from '../stores/copy/copyStore.ts';
import { FrameError, FrameReader } from './frameReader.ts';
import {
  type ClientFrame,
  DaemonError,
  type DaemonHello,
  type DaemonStatus,
  encodeFrame,
  fromWireError,
  type HelloAnswer,
  type ServerFrame,
} from './daemonProtocol.ts';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Request = ClientFrame extends infer F ? (F extends { id: number } ? Omit<F, 'id'> : never) : never;

/** One client connection to the daemon: request/answer by id, events pushed by the daemon. */
export class DaemonConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly eventListeners = new Set<(event: MemoryEvent) => void>();
  private readonly closeListeners = new Set<(error: DaemonError) => void>();
  private readonly progressListeners = new Map<number, (progress: CopyProgress) => void>();
  private closedWith: DaemonError | null = null;

  private readonly socket: Socket;
  private readonly log: Logger;

  private constructor(socket: Socket, log: Logger) {
    this.socket = socket;
    this.log = log;
    socket.setEncoding('utf8');
    const reader = new FrameReader((frame) => {
      if (frame === null || typeof frame !== 'object')
        throw new FrameError('FRAME_MALFORMED', 'A frame that is not an object.');
      this.receive(frame as ServerFrame);
    });
    socket.on('data', (chunk: string) => {
      try {
        reader.push(chunk);
      } catch (error) {
        if (!(error instanceof FrameError)) throw error;
        // A process that sends what is not a frame cannot be trusted with the calls still waiting.
        this.fail(new DaemonError('DAEMON_FAILED', `The memory process sent ${error.message}`, { cause: error }));
        socket.destroy();
      }
    });
    socket.on('error', (error) =>
      this.fail(
        new DaemonError('DAEMON_EXITED', `The memory process connection failed: ${error.message}`, { cause: error }),
      ),
    );
    socket.on('close', () => this.fail(new DaemonError('DAEMON_EXITED', 'The memory process closed the connection.')));
  }

  /** `log` receives what goes wrong on this side of the socket: the window's output channel in the editor. */
  static open(socketPath: string, log: Logger = stderrLogger): Promise<DaemonConnection> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(socketPath);
      const onError = (error: Error): void =>
        reject(
          new DaemonError('DAEMON_UNREACHABLE', `No memory process answers on ${socketPath}: ${error.message}`, {
            cause: error,
          }),
        );
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        resolve(new DaemonConnection(socket, log));
      });
    });
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  hello(hello: DaemonHello): Promise<HelloAnswer> {
    return this.request({ op: 'hello', hello }) as Promise<HelloAnswer>;
  }

  call(path: string, args: unknown[]): Promise<unknown> {
    return this.request({ op: 'call', path, args });
  }

  /**
   * The MCP endpoint of this user in the memory process; `adminTools` adds the opt-in admin group,
   * `workspaceDir` (the window's folder, or null) is where agents' anchors resolve.
   */
  endpoint(
    userId: string,
    adminTools: boolean,
    workspaceDir: string | null,
  ): Promise<{ mcpUrl: string; port: number; token: string }> {
    return this.request({ op: 'endpoint', userId, adminTools, workspaceDir }) as Promise<{
      mcpUrl: string;
      port: number;
      token: string;
    }>;
  }

  /**
   * Copies the user's embedded store into `target` inside the memory process, with progress; the
   * signal cancels it there (the copy stops between batches and reports `cancelled`).
   */
  async copy(
    target: BackendConfig,
    userId: string,
    options: { onProgress?: (progress: CopyProgress) => void; signal?: AbortSignal } = {},
  ): Promise<CopyResult> {
    const id = this.nextId;
    if (options.onProgress) this.progressListeners.set(id, options.onProgress);
    const cancel = (): void =>
      void this.request({ op: 'cancel', request: id }).catch((error: unknown) => {
        // A lost connection also fails the copy's own request, which reports it; anything else is a bug to see.
        if (!(error instanceof DaemonError)) this.log.error('cancelling the copy failed', error);
      });
    const copied = this.request({ op: 'copy', target, userId });
    // Sent after the copy frame, so the process knows the copy it cancels (also when already aborted).
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener('abort', cancel, { once: true });
    try {
      return (await copied) as CopyResult;
    } finally {
      options.signal?.removeEventListener('abort', cancel);
      this.progressListeners.delete(id);
    }
  }

  status(): Promise<DaemonStatus> {
    return this.request({ op: 'status' }) as Promise<DaemonStatus>;
  }

  onEvent(listener: (event: MemoryEvent) => void): { dispose(): void } {
    this.eventListeners.add(listener);
    return { dispose: () => this.eventListeners.delete(listener) };
  }

  onClose(listener: (error: DaemonError) => void): { dispose(): void } {
    this.closeListeners.add(listener);
    return { dispose: () => this.closeListeners.delete(listener) };
  }

  close(): void {
    this.socket.end();
    this.fail(new DaemonError('DAEMON_EXITED', 'The connection was closed by this client.'));
  }

  private request(request: Request): Promise<unknown> {
    if (this.closedWith !== null) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(encodeFrame({ ...request, id } as ClientFrame));
    });
  }

  private receive(frame: ServerFrame): void {
    if ('event' in frame) {
      for (const listener of this.eventListeners) listener(frame.event);
      return;
    }
    if ('progress' in frame) {
      this.progressListeners.get(frame.progress.request)?.(frame.progress.value);
      return;
    }
    const pending = this.pending.get(frame.id);
    if (pending === undefined) return;
    this.pending.delete(frame.id);
    if (frame.ok) pending.resolve(frame.value);
    else pending.reject(fromWireError(frame.error));
  }

  /** Every call still waiting is rejected: the daemon may or may not have done it, so it is not acknowledged. */
  private fail(error: DaemonError): void {
    if (this.closedWith !== null) return;
    this.closedWith = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    for (const listener of this.closeListeners) listener(error);
  }
}
