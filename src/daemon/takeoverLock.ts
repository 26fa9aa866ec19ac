import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

/**
 * The takeover takes milliseconds (a probe, an unlink, a listen, the info file); a lock older than
 * this is a leftover even if its pid now names a live process (the pid was reused).
 */
const STALE_AFTER_MS = 10_000;

/**
 * A lock file held while a starting process replaces the socket file a killed process left.
 * Without it two processes started at once (two windows opening after a crash) both find the file
 * dead, and the second removes the socket the first has just bound: both listen, one on a path
 * nobody reaches, and the info file may hold that one's secret, so every window is refused.
 *
 * The file holds the owner's pid. A lock whose owner is gone, or that is older than any takeover
 * takes, is removed and taken once more. Returns the release, or null when another live process
 * holds it (that one is taking over; this one should leave the address to it).
 */
export function acquireTakeoverLock(lockFile: string, now: () => number = Date.now): (() => void) | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isHeld(lockFile, now())) return null;
    rmSync(lockFile, { force: true });
  }
  return null;
}

function isHeld(lockFile: string, now: number): boolean {
  let owner: number;
  let modifiedMs: number;
  try {
    modifiedMs = statSync(lockFile).mtimeMs;
    owner = Number(readFileSync(lockFile, 'utf8'));
  } catch (error) {
    // Released between our attempt and this read: its owner finished, and the address is its.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  if (now - modifiedMs > STALE_AFTER_MS) return false;
  // Created but not yet written: its writer is alive.
  if (!Number.isInteger(owner) || owner <= 0) return true;
  try {
    process.kill(owner, 0);
    return true;
  } catch (error) {
    // EPERM: the pid is alive (another user's process); only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
