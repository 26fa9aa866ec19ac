import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type FileIdentity, readWholeFile, sameFile, type WholeFile } from './wholeFileRead.ts';

/** How long a prefetched file waits for the load that takes it before its memory is given back. */
export const PREFETCH_KEPT_MS = 30_000;

type PrefetchOutcome = { file: WholeFile | null } | { failed: unknown };

const prefetched = new Map<string, Promise<PrefetchOutcome>>();

/**
 * Starts reading the most recently written persisted index in `indexDir` before anyone asks for it,
 * and resolves to its path (null when the directory holds none). A memory process starts long
 * before its first window says which user it serves, and most data directories serve one user:
 * reading that user's file while the process loads its own code takes the read (about 100 ms for
 * 38 MB on a slow VM, on the thread pool) off the first recall's path, which otherwise waited for
 * it. The bytes wait `keptMs` for the load that takes them (`takePrefetchedIndexFile`), then are
 * dropped; the load checks that the file at the path is still the one read.
 */
export async function prefetchNewestIndexFile(
  indexDir: string,
  suffix: string,
  keptMs = PREFETCH_KEPT_MS,
): Promise<string | null> {
  const path = await newestFile(indexDir, suffix);
  if (path === null || prefetched.has(path)) return path;
  // A failure is kept, not reported: the load that takes it reads the file itself and meets (and reports) whatever failed.
  const outcome = readWholeFile(path).then(
    (file): PrefetchOutcome => ({ file }),
    (failed: unknown): PrefetchOutcome => ({ failed }),
  );
  prefetched.set(path, outcome);
  setTimeout(() => {
    if (prefetched.get(path) === outcome) prefetched.delete(path);
  }, keptMs).unref();
  return path;
}

/**
 * The bytes prefetched for `path` if the file there is still the one read, else null (never
 * prefetched, failed, or replaced or removed since); taken once, so the memory is the load's.
 */
export async function takePrefetchedIndexFile(path: string): Promise<Buffer | null> {
  const outcome = prefetched.get(path);
  if (outcome === undefined) return null;
  prefetched.delete(path);
  const settled = await outcome;
  if ('failed' in settled || settled.file === null) return null;
  const now = await identityOf(path);
  return now !== null && sameFile(now, settled.file.identity) ? settled.file.bytes : null;
}

/** What is held for `path` now, without taking it (for tests and diagnostics); undefined when nothing is. */
export async function peekPrefetchedIndexFile(path: string): Promise<Buffer | null | undefined> {
  const outcome = prefetched.get(path);
  if (outcome === undefined) return undefined;
  const settled = await outcome;
  return 'failed' in settled ? null : (settled.file?.bytes ?? null);
}

/** Drops what was prefetched for `path`: its user's memories were erased, and no copy of their index may stay. */
export function dropPrefetchedIndexFile(path: string): void {
  prefetched.delete(path);
}

async function newestFile(dir: string, suffix: string): Promise<string | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const paths = names.filter((name) => name.endsWith(suffix)).map((name) => join(dir, name));
  const identities = await Promise.all(paths.map(identityOf));
  let newest: { path: string; mtimeMs: number } | null = null;
  for (let at = 0; at < paths.length; at++) {
    const identity = identities[at];
    if (identity !== null && (newest === null || identity.mtimeMs > newest.mtimeMs))
      newest = { path: paths[at], mtimeMs: identity.mtimeMs };
  }
  return newest?.path ?? null;
}

async function identityOf(path: string): Promise<FileIdentity | null> {
  try {
    const { dev, ino, size, mtimeMs } = await stat(path);
    return { dev, ino, size, mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
