import type { IncomingMessage } from 'node:http';
import { MemoryError } from '../core/domain/errors.ts';

/** A lazy body reader: a route that needs the body reads it, once; one that does not never waits for it. */
export function onceBody(request: IncomingMessage, limit: number): () => Promise<unknown> {
  let promise: Promise<unknown> | undefined;
  return () => (promise ??= readJsonBody(request, limit));
}

/**
 * The parsed JSON body, undefined when empty; CONTENT_TOO_LONG past `limit` bytes, INVALID_INPUT
 * when not JSON. Read with plain 'data'/'end' listeners: the stream's async iterator costs a
 * promise and an iterator result per chunk, and an MCP call's body is nearly always one chunk.
 */
export function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit)
    return Promise.reject(
      new MemoryError('CONTENT_TOO_LONG', `Request body of ${declared} bytes exceeds the ${limit}-byte limit.`),
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: MemoryError): void => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // Not consumed further: a client that sends too much gets its answer without the server reading the rest.
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit)
        return stop(new MemoryError('CONTENT_TOO_LONG', `Request body exceeds the ${limit}-byte limit.`));
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      request.off('error', onError).off('close', onClose);
      if (size === 0) return resolve(undefined);
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch (cause) {
        reject(new MemoryError('INVALID_INPUT', 'Request body is not valid JSON.', { cause }));
      }
    };
    // The client hung up (or the socket failed) before the end: the body will never be whole.
    const cutShort = (cause?: Error): void =>
      stop(
        new MemoryError('INVALID_INPUT', 'The client closed the connection before the request body ended.', {
          cause,
        }),
      );
    const onError = (cause: Error): void => cutShort(cause);
    const onClose = (): void => {
      if (!request.complete) cutShort();
    };
    request.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
