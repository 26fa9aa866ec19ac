import type { ClientFrame } from './daemonProtocol.ts';
import { FrameError } from './frameReader.ts';

/** The largest frame an authenticated client may send (as over stdio). */
export const MAX_FRAME_CHARS = 8 * 1024 * 1024;
/**
 * The largest frame before the secret is checked: a hello (secret, config with paths and a
 * Firebolt connection) is well under 2 KB, so nothing unauthenticated makes the process buffer more.
 */
export const MAX_UNAUTHENTICATED_FRAME_CHARS = 16 * 1024;

type Fields = Record<string, unknown>;

/**
 * A decoded line as the client frame it claims to be, or FRAME_MALFORMED: nothing of another
 * shape reaches the server's handlers (a `null` line once killed the process).
 */
export function parseClientFrame(value: unknown): ClientFrame {
  const frame = requireObject(value, 'frame');
  if (!Number.isSafeInteger(frame.id) || (frame.id as number) < 0)
    malformed('a frame id must be a non-negative integer');
  const id = frame.id as number;
  switch (frame.op) {
    case 'hello': {
      const hello = requireObject(frame.hello, 'hello');
      requireString(hello.secret, 'hello.secret');
      const config = requireObject(hello.config, 'hello.config');
      requireString(config.dataDir, 'hello.config.dataDir');
      requireObject(config.backend, 'hello.config.backend');
      requireObject(config.embeddings, 'hello.config.embeddings');
      if (hello.userId !== undefined) requireString(hello.userId, 'hello.userId');
      return { id, op: 'hello', hello: hello as unknown as Extract<ClientFrame, { op: 'hello' }>['hello'] };
    }
    case 'call':
      requireString(frame.path, 'path');
      if (!Array.isArray(frame.args)) malformed('args must be an array');
      return { id, op: 'call', path: frame.path as string, args: frame.args as unknown[] };
    case 'endpoint':
      requireString(frame.userId, 'userId');
      if (typeof frame.adminTools !== 'boolean') malformed('adminTools must be a boolean');
      if (frame.workspaceDir !== null) requireString(frame.workspaceDir, 'workspaceDir');
      return {
        id,
        op: 'endpoint',
        userId: frame.userId as string,
        adminTools: frame.adminTools as boolean,
        workspaceDir: frame.workspaceDir as string | null,
      };
    case 'copy': {
      const target = requireObject(frame.target, 'target');
      requireString(target.kind, 'target.kind');
      requireString(frame.userId, 'userId');
      return {
        id,
        op: 'copy',
        target: target as unknown as Extract<ClientFrame, { op: 'copy' }>['target'],
        userId: frame.userId as string,
      };
    }
    case 'cancel':
      if (!Number.isSafeInteger(frame.request)) malformed('request must be an integer');
      return { id, op: 'cancel', request: frame.request as number };
    case 'status':
      return { id, op: 'status' };
    default:
      return malformed(`unknown op ${JSON.stringify(frame.op)?.slice(0, 40) ?? 'undefined'}`);
  }
}

function requireObject(value: unknown, what: string): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) malformed(`${what} must be an object`);
  return value as Fields;
}

function requireString(value: unknown, what: string): void {
  if (typeof value !== 'string') malformed(`${what} must be a string`);
}

function malformed(reason: string): never {
  throw new FrameError('FRAME_MALFORMED', `A malformed frame: ${reason}.`);
}
