import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Makes the data directory its owner's alone, whatever the umask: the directory (and every
 * directory below it) 0700, every file 0600. Run when a store opens, on a new directory and on one
 * created by an older version (0755 / 0644 under the default umask, readable by every local user);
 * `onTightened` hears once how many entries were tightened. Symbolic links are left alone (chmod
 * would follow them out of the directory). On Windows the per-user profile's ACL already keeps
 * other accounts out and POSIX modes mean nothing, so nothing is done there.
 */
export function makeDataDirPrivate(
  dataDir: string,
  onTightened: (count: number, dir: string) => void = () => {},
): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform === 'win32') return;
  const tightened = tightenTree(dataDir);
  if (tightened > 0) onTightened(tightened, dataDir);
}

/**
 * Creates `path` empty with mode 0600 when it does not exist yet. SQLite gives the `-wal` and
 * `-shm` files it creates later the database file's mode, so they are private from the start.
 */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE));
  if (process.platform !== 'win32') tighten(path, PRIVATE_FILE);
}

function tightenTree(dir: string): number {
  let count = tighten(dir, PRIVATE_DIR) ? 1 : 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) count += tightenTree(path);
    else if (entry.isFile() && tighten(path, PRIVATE_FILE)) count++;
  }
  return count;
}

/** True when the mode had to change. */
function tighten(path: string, mode: number): boolean {
  let current: number;
  try {
    current = lstatSync(path).mode & 0o777;
  } catch (error) {
    // A -wal or -shm file SQLite removed between the listing and the stat: nothing to protect.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if ((current & ~mode) === 0) return false;
  chmodSync(path, current & mode);
  return true;
}
