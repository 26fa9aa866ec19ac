import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DAEMON_PROTOCOL_VERSION } from './daemonProtocol.ts';

/** Where the background process of one data directory listens, and where its info file is. */
export interface DaemonAddress {
  /** A Unix domain socket (Linux, macOS) or a named pipe (Windows). */
  socketPath: string;
  /** Directory holding the socket on Unix; created 0700 so no other user can even reach it. */
  socketDir: string | null;
  /** `daemon/daemon-v<protocol>.json` in the data directory: pid and connection secret, readable by the user only. */
  infoFile: string;
  /** The daemon's log, next to the info file (Memory: Show Logs points to it). */
  logFile: string;
}

/**
 * One address per (OS user, data directory, protocol version): every window of the profile finds
 * the same process; an extension update with a new protocol starts its own. The socket lives in
 * the temp directory because Unix socket paths are limited to about 100 bytes and the editor's
 * global storage path can be longer.
 */
export function daemonAddressOf(dataDir: string, platform: NodeJS.Platform = process.platform): DaemonAddress {
  const absolute = resolve(dataDir);
  const user = safeUserName();
  const key = createHash('sha256')
    .update(`${user}\0${absolute}\0${DAEMON_PROTOCOL_VERSION}`)
    .digest('hex')
    .slice(0, 16);
  // Versioned like the socket: an old process still serving old windows keeps its own info file.
  const infoFile = join(absolute, 'daemon', `daemon-v${DAEMON_PROTOCOL_VERSION}.json`);
  const logFile = join(absolute, 'daemon', 'daemon.log');
  if (platform === 'win32') return { socketPath: `\\\\.\\pipe\\fml-memory-${key}`, socketDir: null, infoFile, logFile };
  const socketDir = join(tmpdir(), `fml-${user}`);
  return { socketPath: join(socketDir, `${key}.sock`), socketDir, infoFile, logFile };
}

function safeUserName(): string {
  // The uid on Unix (no passwd lookup, which fails in some containers); the account name on Windows.
  const name = typeof process.getuid === 'function' ? `uid${process.getuid()}` : (process.env.USERNAME ?? 'user');
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}
