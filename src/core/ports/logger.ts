/**
 * Where the memory layer reports what it does in the background (failed retries, paused jobs):
 * the editor's output channel in VS Code, stderr (the daemon's log file) in the CLI and daemon.
 * The core never writes to the console itself, so nothing it says bypasses the user's log.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

/** The message of any thrown value, for one-line log entries. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Writes `[fml] level message: cause` lines to a sink (process.stderr in the CLI and daemon). */
export function lineLogger(write: (line: string) => void): Logger {
  const line = (level: string, message: string, error?: unknown): void =>
    write(
      `[fml] ${level === 'info' ? '' : `${level}: `}${message}${error === undefined ? '' : `: ${errorText(error)}`}\n`,
    );
  return {
    info: (message) => line('info', message),
    warn: (message, error) => line('warn', message, error),
    error: (message, error) => line('error', message, error),
  };
}

/** The CLI's and daemon's logger: stderr, which the daemon's launcher sends to its log file. */
export const stderrLogger: Logger = lineLogger((text) => process.stderr.write(text));
