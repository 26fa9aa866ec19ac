import { MemoryError, type MemoryErrorCode } from '../core/domain/errors.ts';
import type { MemoryEvent } from '../core/memoryEvents.ts';
import type { BackendConfig, RuntimeConfig } from '../runtime/runtimeConfig.ts';
import type { CopyProgress } from '../stores/copy/copyStore.ts';
import { encodeFrameLine } from './frameReader.ts';

/**
 * The wire format between a window (or the CLI, or a benchmark) and the background memory
 * process: one JSON object per line over a local socket or named pipe. Bumped whenever a frame
 * changes shape, and part of the socket's name, so an updated extension never talks to an old process.
 */
export const DAEMON_PROTOCOL_VERSION = 3;

/** What a client opens: the store, embeddings and the window's project and layers. */
export interface DaemonHello {
  /** The secret of the daemon's info file: only a process that can read the user's data directory connects. */
  secret: string;
  config: RuntimeConfig;
  /** The window's user: the daemon runs daily maintenance and resumes pending extraction for every user a client named. */
  userId?: string;
}

export type ClientFrame =
  | { id: number; op: 'hello'; hello: DaemonHello }
  | { id: number; op: 'call'; path: string; args: unknown[] }
  /**
   * The MCP endpoint of a window's user; `workspaceDir` (absolute, the window's folder on disk, or
   * null) is where agents' `anchor`s are resolved, since one process serves windows of many folders.
   */
  | { id: number; op: 'endpoint'; userId: string; adminTools: boolean; workspaceDir: string | null }
  /** Copies the user's embedded store into `target`; progress frames carry this request's id. */
  | { id: number; op: 'copy'; target: BackendConfig; userId: string }
  | { id: number; op: 'cancel'; request: number }
  | { id: number; op: 'status' };

export interface HelloAnswer {
  pid: number;
  coreKey: string;
  defaultProjectId: string | null;
  layerDefaults: Record<string, string>;
  storeKind: string;
  embeddingModel: string | null;
}

export interface DaemonStatus {
  pid: number;
  clients: number;
  cores: number;
  stores: number;
  rssBytes: number;
  uptimeMs: number;
}

export type ServerFrame =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError }
  | { event: MemoryEvent }
  | { progress: { request: number; value: CopyProgress } };

export interface WireError {
  code: MemoryErrorCode | 'DAEMON_PROTOCOL';
  message: string;
  details?: Record<string, unknown>;
  operation?: string;
}

export function toWireError(error: unknown): WireError {
  if (MemoryError.is(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      ...(error.operation ? { operation: error.operation } : {}),
    };
  }
  // Anything else is a bug in the daemon; the caller sees its message, the daemon's log has the stack.
  return { code: 'DAEMON_PROTOCOL', message: error instanceof Error ? error.message : String(error) };
}

/** The typed error a client throws for a failed call: the core's own MemoryError when it was one. */
export function fromWireError(wire: WireError): Error {
  if (wire.code === 'DAEMON_PROTOCOL') return new DaemonError('DAEMON_FAILED', wire.message);
  return new MemoryError(wire.code, wire.message, {
    ...(wire.details ? { details: wire.details } : {}),
    ...(wire.operation ? { operation: wire.operation } : {}),
  });
}

export type DaemonErrorCode = 'DAEMON_UNREACHABLE' | 'DAEMON_EXITED' | 'DAEMON_FAILED' | 'DAEMON_START_FAILED';

/** Failures of the process boundary itself (not of the memory layer behind it). */
export class DaemonError extends Error {
  readonly code: DaemonErrorCode;
  constructor(code: DaemonErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'DaemonError';
    this.code = code;
  }
}

export function encodeFrame(frame: ClientFrame | ServerFrame): string {
  return encodeFrameLine(frame);
}
