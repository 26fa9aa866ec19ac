import { MemoryError } from '../domain/errors.ts';

const MAX_PATH_CHARS = 1_000;

/**
 * A workspace-relative path as anchors store it: forward slashes, no leading `./`, never absolute
 * and never leaving the workspace (`..`), so a memory cannot make a checker read outside it.
 */
export function requireAnchorPath(value: unknown, field = 'anchors.path'): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new MemoryError('INVALID_INPUT', `${field} must be a workspace-relative file path.`, { details: { field } });
  const path = value
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '');
  if (path.length > MAX_PATH_CHARS)
    throw new MemoryError('INVALID_INPUT', `${field} is longer than ${MAX_PATH_CHARS} characters.`, {
      details: { field },
    });
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split('/').some((part) => part === '..' || part === '')) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${field} "${value}" must be relative to the workspace and stay inside it.`,
      { details: { field } },
    );
  }
  return path;
}

/** The anchor path of a path found in free text, or null when it is not a workspace-relative path (`~/x.ts`, `../x.ts`). */
export function anchorPathOrNull(value: string): string | null {
  const path = value
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '');
  if (
    path === '' ||
    path.length > MAX_PATH_CHARS ||
    path.startsWith('/') ||
    path.startsWith('~') ||
    /^[A-Za-z]:/.test(path)
  )
    return null;
  return path.split('/').some((part) => part === '..' || part === '') ? null : path;
}
