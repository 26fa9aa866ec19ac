import { MemoryError } from '../core/domain/errors.ts';

/**
 * Absolute file-system paths (POSIX, Windows drive, UNC) that start a word. URLs are left alone:
 * their slashes follow a colon or another slash.
 */
const ABSOLUTE_PATH = /(^|[\s"'(=,[])((?:\/|[A-Za-z]:[\\/]|\\\\)[^\s"'),\]]*)/g;
const HIDDEN = '<data directory>';

/**
 * Text with absolute paths replaced. MCP clients are agents, not the person at the machine: where
 * the data directory lives (and so the user's account name) is none of their business. The editor
 * and the CLI, which speak to that person, keep showing the paths.
 */
export function withoutLocalPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (_match, before: string) => `${before}${HIDDEN}`);
}

/** A value with every string in it stripped of absolute paths. */
export function valueWithoutLocalPaths<T>(value: T): T {
  if (typeof value === 'string') return withoutLocalPaths(value) as T;
  if (Array.isArray(value)) return value.map((entry) => valueWithoutLocalPaths(entry)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, valueWithoutLocalPaths(entry)])) as T;
  }
  return value;
}

/** The error as an MCP client may see it: same code, no paths in message or details. */
export function errorWithoutLocalPaths(error: MemoryError): MemoryError {
  const message = withoutLocalPaths(error.message);
  const details =
    error.details === undefined
      ? undefined
      : valueWithoutLocalPaths(Object.fromEntries(Object.entries(error.details).filter(([key]) => key !== 'data_dir')));
  if (message === error.message && details === undefined && error.details === undefined) return error;
  return new MemoryError(error.code, message, {
    cause: error,
    ...(error.operation ? { operation: error.operation } : {}),
    ...(details ? { details } : {}),
  });
}
