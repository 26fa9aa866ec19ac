import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';

/**
 * The folder a window asks its MCP endpoint to resolve agents' anchors in: null (a window without a
 * folder on disk, or in Restricted Mode), or an absolute path to an existing directory. Anything
 * else is refused, so a typo never leaves anchors resolving against the daemon's own directory.
 */
export function requireWorkspaceDir(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || !isAbsolute(value)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `workspaceDir must be an absolute folder path or null, got ${JSON.stringify(value)}.`,
      { details: { field: 'workspaceDir' } },
    );
  }
  if (!statSync(value, { throwIfNoEntry: false })?.isDirectory()) {
    throw new MemoryError('INVALID_INPUT', `workspaceDir ${value} is not a folder.`, {
      details: { field: 'workspaceDir', path: value },
    });
  }
  return value;
}
