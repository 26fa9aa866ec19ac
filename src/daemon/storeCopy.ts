import { MemoryError } from '../core/domain/errors.ts';
import { createStore } from '../runtime/createRuntime.ts';
import type { BackendConfig } from '../runtime/runtimeConfig.ts';
import { copyStore, type CopyResult } from '../stores/copy/copyStore.ts';
import { encodeFrame } from './daemonProtocol.ts';
import type { Connection } from './clientConnection.ts';

/**
 * Memory: Copy Local Memories to Firebolt, run here: the embedded store (a second connection to
 * its file) copied into the bare target store (no outbox: the copy must fail when Firebolt is away).
 */
export async function copyToFirebolt(
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
