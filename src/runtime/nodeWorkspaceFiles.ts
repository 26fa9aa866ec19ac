import { realpathSync, statSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { WorkspaceFiles } from '../core/anchors/workspaceFiles.ts';
import { requireAnchorPath } from '../core/anchors/anchorPaths.ts';

/** Folders never searched for moved code: dependencies, build output, VCS data. */
const IGNORED_DIRS = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'out',
  'build',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.next',
  'coverage',
  '.cache',
]);
/** Larger files are data or generated code, not code a memory is about. */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The anchor check's file-system port over a folder on disk (fml serve --workspace DIR, the
 * extension's file: workspaces). Paths outside the folder are refused by requireAnchorPath, and
 * a path that only leads outside through a symbolic link (`vendor -> /elsewhere`) reads as a
 * missing file: its real path is checked, and the answer is the same as for a file that does not
 * exist, so nothing tells what exists outside the folder.
 */
export function nodeWorkspaceFiles(root: string): WorkspaceFiles {
  const absolute = (path: string): string => join(root, requireAnchorPath(path, 'path'));
  let realRoot: string | null = null;
  const rootReal = (): string => (realRoot ??= realpathSync(root));
  /** The file's real path when it lies inside the real workspace folder, else null (as if missing). */
  const within = (real: string): string | null => {
    const base = rootReal();
    return real.startsWith(base.endsWith(sep) ? base : base + sep) ? real : null;
  };
  return {
    async read(path) {
      try {
        const real = within(await realpath(absolute(path)));
        if (real === null) return null;
        const info = await stat(real);
        if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
        const text = await readFile(real, 'utf8');
        // A NUL byte: a binary file, which holds no code to anchor.
        return text.includes('\u0000') ? null : { text, mtimeMs: info.mtimeMs };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async modified(path) {
      // Called once per anchor on every recall: a synchronous stat of a local file takes microseconds,
      // where the thread pool's round trip costs an event-loop turn each on a busy server.
      try {
        const real = within(realpathSync(absolute(path)));
        if (real === null) return null;
        const info = statSync(real, { throwIfNoEntry: false });
        return info?.isFile() ? info.mtimeMs : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async list() {
      const found: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (error) {
          // A folder removed while walking, or one we may not read: its files are not part of the search.
          if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EACCES') return;
          throw error;
        }
        for (const entry of entries) {
          if (entry.isDirectory()) {
            if (!IGNORED_DIRS.has(entry.name) && !entry.name.startsWith('.')) await walk(join(dir, entry.name));
          } else if (entry.isFile()) {
            found.push(relative(root, join(dir, entry.name)).split(sep).join('/'));
          }
        }
      };
      await walk(root);
      return found;
    },
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // ELOOP: a symbolic link cycle leads nowhere, like a missing file.
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
