import type { IncomingMessage } from 'node:http';
import { MemoryError } from '../core/domain/errors.ts';

/** A lazy body reader: a route that needs the body reads it, once; one that does not never waits for it. */
export function onceBody(request: IncomingMessage, limit: number): () => Promise<unknown> {
  let promise: Promise<unknown> | undefined;
  return () => (promise ??= readJsonBody(request, limit));
}

/** The parsed JSON body, undefined when empty; CONTENT_TOO_LONG past `limit` bytes, INVALID_INPUT when not JSON. */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit)
    throw new MemoryError('CONTENT_TOO_LONG', `Request body of ${declared} bytes exceeds the ${limit}-byte limit.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new MemoryError('CONTENT_TOO_LONG', `Request body exceeds the ${limit}-byte limit.`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (cause) {
    throw new MemoryError('INVALID_INPUT', 'Request body is not valid JSON.', { cause });
  }
}
