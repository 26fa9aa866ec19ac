import { type FSWatcher, realpathSync, watch } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';
import type { Logger } from '../core/ports/logger.ts';
import {
  type FileProvenance,
  INSTRUCTION_FILES,
  type InstructionFile,
  type RepoFileListing,
  type RepoMemoryFiles,
} from '../core/ports/repoMemoryFiles.ts';
import { MEMORY_FOLDER } from '../core/repomemory/memoryFile.ts';

/** A memory file is a few kilobytes; a larger one is not a memory (and is not read whole into the store). */
const MAX_FILE_BYTES = 256 * 1024;
/** How long git may take to name the last commits; a slower answer keeps what is known. */
const GIT_TIMEOUT_MS = 5000;
const DEBOUNCE_MS = 300;
const FILE_PATH = /^\.memory\/[^/\\]+\.md$/;

export interface NodeRepoMemoryFilesOptions {
  logger: Logger;
  debounceMs?: number;
}

/**
 * The `.memory/` folder of a workspace on disk. Every path is checked twice: by its form (one
 * `.md` file directly in `.memory/`) and by where it really leads — the folder and each file must
 * resolve inside the real workspace folder, so a link to elsewhere (`.memory -> /etc`, a file
 * linked to ~/.ssh) is reported and never read or written through. Writes go to a temporary file
 * renamed over the target, which replaces a link instead of writing where it points.
 */
export function nodeRepoMemoryFiles(root: string, options: NodeRepoMemoryFilesOptions): RepoMemoryFiles {
  const realRoot = realpathSync(root);
  const inside = (real: string): boolean => real === realRoot || real.startsWith(realRoot + sep);
  const folder = join(root, MEMORY_FOLDER);

  /** The real `.memory/` folder; null when it does not exist; UNAUTHORIZED when it leads outside the workspace. */
  const realFolder = async (): Promise<string | null> => {
    try {
      const real = await realpath(folder);
      if (!inside(real))
        throw new MemoryError(
          'UNAUTHORIZED',
          `${MEMORY_FOLDER} leads outside the workspace (${real}); it is not used.`,
        );
      return real;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  const requirePath = (path: string): string => {
    if (!FILE_PATH.test(path))
      throw new MemoryError('INVALID_INPUT', `${path}: a memory file is one .md file directly in ${MEMORY_FOLDER}/.`);
    return join(root, path);
  };

  return {
    root,
    async list(): Promise<RepoFileListing> {
      const listing: RepoFileListing = { files: [], problems: [] };
      let real: string | null;
      try {
        real = await realFolder();
      } catch (error) {
        if (!MemoryError.is(error)) throw error;
        listing.problems.push({ path: MEMORY_FOLDER, message: error.message });
        return listing;
      }
      if (real === null) return listing;
      for (const name of (await readdir(real)).sort()) {
        if (!name.endsWith('.md') || name.startsWith('.')) continue;
        const path = `${MEMORY_FOLDER}/${name}`;
        const problem = await readInto(join(real, name), path, listing);
        if (problem) listing.problems.push({ path, message: problem });
      }
      return listing;
    },

    async write(path: string, text: string): Promise<void> {
      const target = requirePath(path);
      await mkdir(folder, { recursive: true });
      const real = await realFolder();
      if (real === null)
        throw new MemoryError('STORAGE_READ_ONLY', `${MEMORY_FOLDER} could not be created in ${root}.`);
      const name = target.slice(folder.length + 1);
      const temporary = join(real, `.${name}.${process.pid}.${Date.now()}.tmp`);
      await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
      await rename(temporary, join(real, name));
    },

    async remove(path: string): Promise<void> {
      requirePath(path);
      const real = await realFolder();
      if (real === null) return;
      try {
        await unlink(join(real, path.slice(MEMORY_FOLDER.length + 1)));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },

    provenance: () => gitProvenance(root, options.logger),

    watch(onChange: () => void): { dispose(): void } {
      return watchRepository(root, folder, onChange, options);
    },

    async readInstructions(path: InstructionFile): Promise<string | null> {
      const target = await instructionTarget(path);
      try {
        return await readFile(target, 'utf8');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async writeInstructions(path: InstructionFile, text: string): Promise<void> {
      const target = await instructionTarget(path);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
      await rename(temporary, target);
    },
  };

  /** Where an instructions file really is; UNAUTHORIZED when it (or its folder) leads outside the workspace. */
  async function instructionTarget(path: InstructionFile): Promise<string> {
    if (!INSTRUCTION_FILES.includes(path))
      throw new MemoryError(
        'INVALID_INPUT',
        `${path}: the section is written to ${INSTRUCTION_FILES.join(', ')} only.`,
      );
    const absolute = join(root, path);
    // The deepest part that exists decides: a linked file or a linked .github/ must stay inside.
    for (let probe = absolute; probe.length >= root.length; probe = dirname(probe)) {
      let real: string;
      try {
        real = await realpath(probe);
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      if (!inside(real))
        throw new MemoryError('UNAUTHORIZED', `${path} leads outside the workspace (${real}); it is not written.`);
      return probe === absolute ? real : join(real, absolute.slice(probe.length + 1));
    }
    return absolute;
  }

  /** Reads one file into the listing; returns why it was not read, or null. */
  async function readInto(file: string, path: string, listing: RepoFileListing): Promise<string | null> {
    let real: string;
    try {
      real = await realpath(file);
    } catch (error) {
      if (isMissing(error)) return 'a link to a file that does not exist.';
      throw error;
    }
    if (!inside(real)) return 'a link leading outside the workspace; it is not read.';
    const info = await stat(real);
    if (!info.isFile()) return 'not a regular file.';
    if (info.size > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES / 1024} KB; a memory file is not.`;
    listing.files.push({ path, text: await readFile(real, 'utf8') });
    return null;
  }
}

/**
 * The last commit of every file under `.memory/`, from one `git log` of the folder, newest first
 * (the first time a path appears is its last commit). Paths are relative to the workspace
 * (`--relative`), which may be a folder inside the repository.
 */
function gitProvenance(root: string, log: Logger): Promise<Map<string, FileProvenance> | null> {
  const args = [
    '-c',
    'core.quotepath=off',
    '-C',
    root,
    'log',
    '--relative',
    '--no-renames',
    '--name-only',
    '--format=%x01%H%x00%an%x00%aI',
    '--',
    MEMORY_FOLDER,
  ];
  // node:child_process at the first git call, not at every fml start (it brings dgram and net in: ~10 ms of CPU).
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    execFile('git', args, { timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        // Not a repository (or no commits yet): nothing is committed, which is an answer.
        if (/not a git repository|does not have any commits/i.test(stderr)) return resolve(new Map());
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(new Map());
        log.warn('project memories: git log did not answer; commit and author stay as last known', error);
        return resolve(null);
      }
      resolve(parseGitLog(stdout));
    });
  });
}

export function parseGitLog(output: string): Map<string, FileProvenance> {
  const provenance = new Map<string, FileProvenance>();
  for (const entry of output.split('\u0001').slice(1)) {
    const [header, ...names] = entry.split('\n');
    const [commit, author, date] = header.split('\u0000');
    if (!commit || author === undefined || !date) continue;
    for (const name of names) {
      const path = name.trim();
      if (path && !provenance.has(path)) provenance.set(path, { commit, author, date: new Date(date).toISOString() });
    }
  }
  return provenance;
}

/**
 * Watches `.memory/` (created or removed later too: the workspace folder is watched for it) and the
 * repository's own folder, whose HEAD, index and refs change on a commit, checkout, merge or pull.
 * Bursts (a checkout touching many files) become one call.
 */
function watchRepository(
  root: string,
  folder: string,
  onChange: () => void,
  options: NodeRepoMemoryFilesOptions,
): { dispose(): void } {
  const debounceMs = options.debounceMs ?? DEBOUNCE_MS;
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const fire = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!disposed) onChange();
    }, debounceMs);
  };
  const watchers = new Map<string, FSWatcher>();
  const open = (path: string, listener: (name: string | null) => void): void => {
    if (watchers.has(path) || disposed) return;
    try {
      const watcher = watch(path, { persistent: false }, (_event, name) =>
        listener(name === null ? null : String(name)),
      );
      watcher.on('error', (error) => {
        // The folder went away (a branch without .memory/): the workspace watch re-opens it when it returns.
        watcher.close();
        watchers.delete(path);
        if (!isMissing(error)) options.logger.warn(`project memories: watching ${path} stopped`, error);
        fire();
      });
      watchers.set(path, watcher);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  };
  const openFolder = (): void => open(folder, () => fire());
  open(root, (name) => {
    if (name === MEMORY_FOLDER) {
      const current = watchers.get(folder);
      current?.close();
      watchers.delete(folder);
      openFolder();
      fire();
    }
  });
  openFolder();
  void gitDirOf(root).then((gitDir) => {
    if (gitDir) open(gitDir, () => fire());
  });
  return {
    dispose() {
      disposed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** The repository's own folder (a worktree's, for a worktree), which git rewrites on every commit and checkout; null outside git. */
function gitDirOf(root: string): Promise<string | null> {
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    execFile('git', ['-C', root, 'rev-parse', '--absolute-git-dir'], { timeout: GIT_TIMEOUT_MS }, (error, stdout) =>
      resolve(error ? null : stdout.trim() || null),
    );
  });
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
