import { CURRENT_SCHEME, type SketchScheme } from './codeFingerprint.ts';
import { findSymbols, type FoundSymbol } from './symbolFinder.ts';
import type { WorkspaceFiles } from './workspaceFiles.ts';

/** One file as the check sees it, parsed once per modification. */
export class FileSnapshot {
  readonly path: string;
  readonly mtimeMs: number;
  readonly lines: readonly string[];
  private symbolList: FoundSymbol[] | null = null;
  private readonly lineTokenLists = new Map<number, string[][]>();

  constructor(path: string, text: string, mtimeMs: number) {
    this.path = path;
    this.mtimeMs = mtimeMs;
    this.lines = text.split(/\r?\n/);
  }

  get symbols(): FoundSymbol[] {
    this.symbolList ??= findSymbols(this.path, this.lines.join('\n'));
    return this.symbolList;
  }

  /** Normalised tokens of each line (block comments spanning lines are not recognised line by line). */
  get lineTokens(): string[][] {
    return this.lineTokensIn(CURRENT_SCHEME);
  }

  /** The same, tokenised as a sketch version does (a version-1 anchor is compared by version-1 rules). */
  lineTokensIn(scheme: SketchScheme): string[][] {
    let lists = this.lineTokenLists.get(scheme.version);
    if (!lists) {
      lists = this.lines.map((line) => scheme.tokens(line));
      this.lineTokenLists.set(scheme.version, lists);
    }
    return lists;
  }

  /** Lines `start..end` (1-based, inclusive, clamped to the file). */
  text(start: number, end: number): string {
    return this.lines.slice(Math.max(0, start - 1), Math.min(this.lines.length, end)).join('\n');
  }
}

/**
 * Parsed files keyed on path and modification time: a file is read again only when its mtime
 * changes, so repeated checks of an unchanged workspace cost one stat per file.
 */
export class FileSnapshots {
  private readonly files: WorkspaceFiles;
  private readonly cache = new Map<string, FileSnapshot>();
  private readonly maxFiles: number;

  constructor(files: WorkspaceFiles, maxFiles = 20_000) {
    this.files = files;
    this.maxFiles = maxFiles;
  }

  async get(path: string): Promise<FileSnapshot | null> {
    const cached = this.cache.get(path);
    const mtime = await this.files.modified(path);
    if (mtime === null) {
      this.cache.delete(path);
      return null;
    }
    if (cached && cached.mtimeMs === mtime) return cached;
    const read = await this.files.read(path);
    if (!read) {
      this.cache.delete(path);
      return null;
    }
    const snapshot = new FileSnapshot(path, read.text, read.mtimeMs);
    if (this.cache.size >= this.maxFiles) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(path, snapshot);
    return snapshot;
  }

  forget(path: string): void {
    this.cache.delete(path);
  }
}
