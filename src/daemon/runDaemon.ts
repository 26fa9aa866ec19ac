import { daemonAddressOf } from './daemonAddress.ts';
import { DaemonServer } from './daemonServer.ts';

export const DEFAULT_GRACE_MS = 5 * 60_000;

/**
 * `fml daemon`: serves the data directory until no client has been connected for `graceMs`.
 * Exits with 0 at once when another live process already serves it (two windows raced to start one).
 */
export async function runDaemon(options: { dataDir: string; graceMs: number }): Promise<void> {
  const log = (line: string): void => {
    process.stderr.write(`${new Date().toISOString()} [fml-daemon ${process.pid}] ${line}\n`);
  };
  const server = new DaemonServer({
    address: daemonAddressOf(options.dataDir),
    graceMs: options.graceMs,
    log,
    onIdleExit: () => void stop(0),
  });
  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    try {
      await server.close();
    } catch (error) {
      log(`closing failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      code = 1;
    }
    process.exit(code);
  };
  // A rejection nobody awaited is a bug in one request, not a reason to cut every window off its memory.
  process.on('unhandledRejection', (reason) =>
    log(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
  );
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  if (!(await server.listen())) {
    log('another memory process already serves this data directory; exiting');
    process.exit(0);
  }
}
