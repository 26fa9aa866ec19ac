import type { Logger } from '../core/ports/logger.ts';
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';
import { type DaemonAddress, daemonAddressOf } from './daemonAddress.ts';
import { DaemonConnection } from './daemonConnection.ts';
import { hugePageMallocOf } from './hugePageMalloc.ts';
import { preparePrivateDir } from './socketFiles.ts';
import { DaemonError, type DaemonHello, type HelloAnswer } from './daemonProtocol.ts';
import type { DaemonInfo } from './daemonServer.ts';
import { RemoteCore } from './remoteCore.ts';

/** How to start the background process: a Node (the editor's own, as Node) running the CLI bundle. */
export interface DaemonCommand {
  execPath: string;
  cliPath: string;
  env?: NodeJS.ProcessEnv;
  graceMs?: number;
}

export interface OpenRemoteCoreOptions {
  dataDir: string;
  command: DaemonCommand;
  hello: Omit<DaemonHello, 'secret'>;
  /** Give up starting the process after this long (opening a 100K store included). */
  startTimeoutMs?: number;
  /** Where this side of the connection reports failures (the window's output channel). */
  logger?: Logger;
}

export interface OpenedRemoteCore {
  core: RemoteCore;
  connection: DaemonConnection;
  opened: HelloAnswer;
  /** True when this call started the process (no other window had). */
  started: boolean;
  address: DaemonAddress;
}

const LOG_ROTATE_BYTES = 5 * 1024 * 1024;
/**
 * For this long after spawning the memory process, connecting is retried every FAST_POLL_MS: it
 * listens 100–150 ms after its spawn, and the doubling pauses used otherwise (10, 20, 40, 80, 160 ms)
 * left a window waiting up to 160 ms after it listened. A refused connect costs microseconds.
 */
const FAST_POLL_WINDOW_MS = 3_000;
const FAST_POLL_MS = 5;

/**
 * Connects to the data directory's daemon, starting it when none answers, and opens the core of
 * `hello.config` in it. Two windows racing both spawn; the second process finds the first
 * listening and exits, and both windows end up on the first.
 */
export async function openRemoteCore(options: OpenRemoteCoreOptions): Promise<OpenedRemoteCore> {
  const address = daemonAddressOf(options.dataDir);
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  let started = false;
  let spawnedAt = 0;
  let lastError: unknown = null;
  const child = { exitCode: undefined as number | null | undefined };
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const connection = await DaemonConnection.open(address.socketPath, options.logger).catch((error: unknown) => {
      lastError = error;
      return null;
    });
    if (connection !== null) {
      const info = readInfo(address.infoFile);
      if (info !== null) {
        try {
          const opened = await connection.hello({ ...options.hello, secret: info.secret });
          return { core: new RemoteCore(connection, opened), connection, opened, started, address };
        } catch (error) {
          connection.close();
          // A wrong secret means the info file is a dead process's and the new one has not written its own yet.
          if (
            !MemoryError.is(error, 'UNAUTHORIZED') &&
            !(error instanceof DaemonError && error.code === 'DAEMON_EXITED')
          )
            throw error;
          lastError = error;
        }
      } else {
        connection.close();
      }
    } else if (!started) {
      started = true;
      spawnedAt = Date.now();
      spawnDaemon(options.dataDir, address, options.command).once('exit', (code) => (child.exitCode = code));
    } else if (child.exitCode !== undefined && child.exitCode !== 0) {
      // Exit code 0 is the process that lost the race to another one: keep connecting to the winner.
      throw new DaemonError(
        'DAEMON_START_FAILED',
        `The memory process exited with code ${child.exitCode}; see ${address.logFile}.`,
      );
    }
    await pause(connectRetryPauseMs(attempt, started ? Date.now() - spawnedAt : null));
  }
  throw new DaemonError(
    'DAEMON_START_FAILED',
    `The memory process did not answer on ${address.socketPath} in time; see ${address.logFile}.`,
    { cause: lastError },
  );
}

/** The pause before connect attempt `attempt + 1`; `msSinceSpawn` is null when this window spawned no process. */
export function connectRetryPauseMs(attempt: number, msSinceSpawn: number | null): number {
  if (msSinceSpawn !== null && msSinceSpawn < FAST_POLL_WINDOW_MS) return FAST_POLL_MS;
  return Math.min(200, 10 * 2 ** Math.min(attempt, 5));
}

function spawnDaemon(dataDir: string, address: DaemonAddress, command: DaemonCommand) {
  mkdirSync(dirname(address.logFile), { recursive: true, mode: 0o700 });
  const environment = command.env ?? process.env;
  const compileCache = compileCacheOf(address, environment);
  rotate(address.logFile);
  const log = openSync(address.logFile, 'a', 0o600);
  try {
    const child = spawn(
      command.execPath,
      [
        command.cliPath,
        'daemon',
        '--data-dir',
        dataDir,
        ...(command.graceMs !== undefined ? ['--grace-ms', String(command.graceMs)] : []),
      ],
      {
        // Detached: it outlives the window that started it (a reload, or that window closing while others use it).
        detached: true,
        stdio: ['ignore', log, log],
        windowsHide: true,
        // The editor's executable runs as plain Node; the secret-free environment is the parent's.
        env: {
          ...environment,
          ELECTRON_RUN_AS_NODE: '1',
          ...compileCache,
          ...hugePageMallocOf(environment, process.platform),
        },
      },
    );
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

/**
 * Node keeps the code it compiled from the CLI bundle in a private directory and reuses it at the
 * next start: compiling the 4 MB bundle was about a third of the CPU a memory process spends before
 * it listens. The cache sits beside the socket (the per-user 0700 directory the process checks is
 * its own), not in the data directory: one copy serves every data directory, and a data directory
 * removed while a process exits is not written into. Node keys it by the bundle's content, so a new
 * build compiles once again; a Node without the feature ignores the variable; a value the user set
 * is left as it is. Windows, with no socket directory, keeps it beside the log.
 */
function compileCacheOf(address: DaemonAddress, environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (environment.NODE_COMPILE_CACHE !== undefined || environment.NODE_DISABLE_COMPILE_CACHE !== undefined) return {};
  const directory = join(address.socketDir ?? dirname(address.logFile), 'compile-cache');
  try {
    if (address.socketDir !== null) preparePrivateDir(address.socketDir);
    preparePrivateDir(directory);
  } catch (error) {
    // A socket directory of another user: the process starts without the cache and refuses to
    // listen there, reporting it in its log, as it did before the cache.
    if (MemoryError.is(error) && error.code === 'CONFIGURATION_ERROR') return {};
    throw error;
  }
  return { NODE_COMPILE_CACHE: directory };
}

function rotate(logFile: string): void {
  let size: number;
  try {
    size = statSync(logFile).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (size > LOG_ROTATE_BYTES) renameSync(logFile, `${logFile}.1`);
}

export function readInfo(infoFile: string): DaemonInfo | null {
  let text: string;
  try {
    text = readFileSync(infoFile, 'utf8');
  } catch (error) {
    // Not written yet (the process is starting) is expected; anything else is not.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return JSON.parse(text) as DaemonInfo;
  } catch (error) {
    // Caught mid-write by the starting process: read again on the next attempt.
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
