import type { WorkspaceFiles } from '../anchors/workspaceFiles.ts';

/**
 * The repository's `.memory/` folder as the project-memory sync sees it (issue #34): the files'
 * texts, atomic writes and removals, who last committed each file, and a signal when anything in
 * the folder or the repository's state changes. Every path is workspace-relative with forward
 * slashes (".memory/x.md"); the adapter confines every read and write to the real workspace folder.
 */
export interface RepoMemoryFiles {
  /** The workspace folder, for messages. */
  readonly root: string;
  /** Every `*.md` file directly in `.memory/`; a file that cannot be read safely is a problem, not a text. */
  list(): Promise<RepoFileListing>;
  /** Writes the whole file at once (no reader sees half of it); creates `.memory/` when missing. */
  write(path: string, text: string): Promise<void>;
  /** Removes the file; a file already gone is not an error. */
  remove(path: string): Promise<void>;
  /**
   * The last commit of each file of `.memory/` that git knows; empty when the folder is not in a
   * git repository, null when git did not answer this time (too slow, failed): what is known stays.
   */
  provenance(): Promise<Map<string, FileProvenance> | null>;
  /**
   * Calls `onChange` (debounced) when a file of `.memory/` changes, or the repository's state does
   * (a commit, a checkout, a merge, a pull).
   */
  watch(onChange: () => void): { dispose(): void };
  /** An instructions file for agents without MCP (AGENTS.md …, INSTRUCTION_FILES); null when it does not exist. */
  readInstructions(path: InstructionFile): Promise<string | null>;
  /** Replaces that file whole, atomically. */
  writeInstructions(path: InstructionFile, text: string): Promise<void>;
}

/**
 * A workspace whose project memories are shared: its `.memory/` folder, and its code, where the
 * anchors written in those files are resolved (the same workspace, whichever process syncs it).
 */
export interface RepoWorkspace {
  memoryFiles: RepoMemoryFiles;
  codeFiles: WorkspaceFiles;
}

/** The files agents without MCP read, which `fml export --agents-md` may write a section of. */
export const INSTRUCTION_FILES = ['AGENTS.md', '.github/copilot-instructions.md', 'CLAUDE.md'] as const;
export type InstructionFile = (typeof INSTRUCTION_FILES)[number];

export interface RepoFileListing {
  files: RepoFileText[];
  problems: RepoFileProblem[];
}

export interface RepoFileText {
  path: string;
  text: string;
}

/** A file of `.memory/` that was not read: a link leading outside the workspace, too large, not a file. */
export interface RepoFileProblem {
  path: string;
  message: string;
}

/** The last commit that touched a file, as `git log -1` reports it. */
export interface FileProvenance {
  commit: string;
  author: string;
  /** ISO time of the commit's author date. */
  date: string;
}
