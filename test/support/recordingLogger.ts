import type { Logger } from '../../src/core/ports/logger.ts';

/** A logger that keeps every line, for tests that assert what the layer reported. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (message: string, error?: unknown): void => {
      lines.push(
        `${level} ${message}${error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`}`,
      );
    };
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}
