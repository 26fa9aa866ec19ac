import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';

/**
 * The generated user id lives beside the store (`<dataDir>/user-id`, mode 0600), not in the
 * editor's globalState: web hosts (code-server, Codespaces, VS Code for the Web) keep globalState
 * in the browser, so a second browser profile on the same data was a different user and saw none
 * of its memories. With the id in the data directory every window and host on it is one user.
 */
export const USER_ID_FILE = 'user-id';

const GENERATED = /^user_[0-9a-f]{16}$/;
/** An id carried over from globalState or written by hand: printable, no separators a path or a log would split on. */
const ACCEPTED = /^[\w.@:-]{1,128}$/;

export function generateUserId(): string {
  return `user_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/**
 * The data directory's user id, created once. `existing` (the id an earlier version kept in
 * globalState) becomes the file's id on first run, so those users keep their memories.
 * Creation is atomic: the id is written to a private temporary file and hard-linked into place,
 * which fails when another process got there first; the loser then reads the winner's id. Two
 * windows starting at once therefore get the same id, and no reader ever sees a half-written file.
 */
export async function loadOrCreateUserId(dataDir: string, existing?: string): Promise<string> {
  const path = join(dataDir, USER_ID_FILE);
  const found = await readUserId(path);
  if (found !== null) return found;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const id = existing !== undefined && ACCEPTED.test(existing) ? existing : generateUserId();
  const temporary = join(dataDir, `.${USER_ID_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  await writeFile(temporary, `${id}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readUserId(path);
    if (winner === null) throw invalidFile(path, 'it vanished while being created');
    return winner;
  } finally {
    await unlink(temporary);
  }
}

async function readUserId(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const id = text.trim();
  if (GENERATED.test(id) || ACCEPTED.test(id)) return id;
  // Never replaced silently: a new id would hide every memory of the old one.
  throw invalidFile(path, 'it does not hold a user id');
}

function invalidFile(path: string, why: string): MemoryError {
  return new MemoryError(
    'CONFIGURATION_ERROR',
    `${path} cannot be used as this data directory's user id (${why}); restore it, or set fireboltMemory.user.id.`,
    { details: { path } },
  );
}
