import { timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { createConnection, type Server } from 'node:net';
import { MemoryError } from '../core/domain/errors.ts';

/** The memory process's socket: listening on it, probing it, its private directory, its secret. */

/** Compares a client's secret in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** False when another process holds the socket (EADDRINUSE). */
export function tryListen(server: Server, path: string): Promise<boolean> {
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
export function preparePrivateDir(dir: string): void {
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
