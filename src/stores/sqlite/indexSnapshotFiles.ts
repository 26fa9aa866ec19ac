import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, renameSync, unlinkSync } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';

const SUFFIX = '.fmlidx';

/**
 * Where persisted indexes live: `<store file>-indexes/`, one file per user, named by a hash of
 * the user id (ids are free text; a file name must not be). Files are written whole to a temporary
 * name and renamed into place, so a reader never sees half a file; the directory is private to
 * the account (0700, files 0600) like the store itself.
 */
export class IndexSnapshotFiles {
  readonly dir: string;

  constructor(storePath: string) {
    this.dir = `${storePath}-indexes`;
  }

  pathFor(userId: string): string {
    return join(this.dir, `${userKey(userId)}${SUFFIX}`);
  }

  /**
   * The user's file, or null when there is none. Read with one read of its whole size, not
   * readFile's 512 KiB pieces: each piece waited for the main thread, which a fresh process's first
   * recall keeps busy analysing its query, so 38 MB took 60 ms after it instead of running beside it.
   */
  async read(userId: string): Promise<Buffer | null> {
    let file: FileHandle;
    try {
      file = await open(this.pathFor(userId), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await file.stat();
      const bytes = Buffer.allocUnsafeSlow(size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await file.read(bytes, filled, size - filled, filled);
        // Cut short while read (it never is: files are renamed into place whole): the decoder refuses what is here.
        if (bytesRead === 0) return bytes.subarray(0, filled);
        filled += bytesRead;
      }
      return bytes;
    } finally {
      await file.close();
    }
  }

  /**
   * Writes `parts`, one after another, under a temporary name of the user's; `publish` or `discard`
   * it next. One gathered write (`writev`) for all parts: `writeFile` given a list writes each part
   * as its own request to the thread pool, and a file is some 30 parts (the header, each section
   * and its padding), so the main thread paid 30 round trips a save (2 % of a bench:load server's
   * main thread, whose 200 users' first indexes are all saved in the load).
   */
  async writeTemporary(userId: string, parts: readonly Uint8Array[]): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temporary = join(this.dir, `${userKey(userId)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const file = await open(temporary, 'w', 0o600);
    try {
      await writeAll(file, parts);
    } finally {
      await file.close();
    }
    return temporary;
  }

  /**
   * Synchronous on purpose: the store calls it under its write lock (see persistedIndexes.ts).
   * False when the temporary file is gone: an erasure of the user removed it meanwhile.
   */
  publish(temporary: string, userId: string): boolean {
    try {
      renameSync(temporary, this.pathFor(userId));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  discard(temporary: string): void {
    unlinkQuietly(temporary);
  }

  /**
   * Removes every file of the user, temporary ones of any process included: after an erasure no
   * persisted index may still hold the erased memory's terms or ids.
   */
  eraseUser(userId: string): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const prefix = `${userKey(userId)}.`;
    for (const name of names) if (name.startsWith(prefix)) unlinkQuietly(join(this.dir, name));
  }
}

/** The kernel accepted no byte of a write with bytes left: the save fails (and is retried later) instead of looping. */
export class IndexFileWriteError extends Error {
  readonly code = 'INDEX_FILE_WRITE_STALLED';
  constructor(position: number) {
    super(`writing a persisted index stalled at byte ${position}`);
  }
}

/** Every byte of `parts` in order from the start of the file, in as few `writev` calls as the kernel allows. */
export async function writeAll(file: FileHandle, parts: readonly Uint8Array[]): Promise<void> {
  let pending = parts.filter((part) => part.byteLength > 0);
  let position = 0;
  while (pending.length > 0) {
    const { bytesWritten } = await file.writev(pending, position);
    if (bytesWritten === 0) throw new IndexFileWriteError(position);
    position += bytesWritten;
    // A short write (the kernel may stop at a signal or a size limit): go on from the first byte not written.
    let skip = bytesWritten;
    let first = 0;
    while (first < pending.length && skip >= pending[first].byteLength) skip -= pending[first++].byteLength;
    pending = pending.slice(first);
    if (pending.length > 0 && skip > 0) pending[0] = pending[0].subarray(skip);
  }
}

function userKey(userId: string): string {
  return `u-${createHash('sha256').update(userId, 'utf8').digest('hex').slice(0, 32)}`;
}

/** A file already gone is what was wanted; any other failure (permissions) is reported. */
function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
