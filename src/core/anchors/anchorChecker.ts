import { MemoryError } from '../domain/errors.ts';
import { codeTokens, SKETCH_VERSION, sketchOfTokens } from './codeFingerprint.ts';
import { type AnchorCheck, type AnchorInput, type CodeAnchor, anchorKey } from './anchorModel.ts';
import { isUnchanged, locateIn, symbolIn, compareAt, type Located } from './codeLocator.ts';
import { FileSnapshots, type FileSnapshot } from './fileSnapshots.ts';
import { anchorPathOrNull, requireAnchorPath } from './anchorPaths.ts';
import type { WorkspaceFiles } from './workspaceFiles.ts';
import { WorkspaceSearch } from './workspaceSearch.ts';

/** Longest line range an anchor may cover: an anchor is about a piece of code, not a whole file. */
export const MAX_ANCHOR_LINES = 2_000;

interface CachedCheck {
  /** Modification times of the anchor's file and of where it was last followed to. */
  mtimes: string;
  check: AnchorCheck;
}

/**
 * Checks anchors against a workspace (issue #18):
 * - fresh: the code is where it was (same file; a symbol may have shifted lines), unchanged up to
 *   formatting and comments (codeFingerprint.ts);
 * - moved: found unchanged in another file (by symbol or by its code), or a line anchor's code at other lines;
 * - changed: found, but its behaviour-bearing tokens differ (an operator, a call, a literal, a name);
 * - gone: the file or the symbol is no longer anywhere in the workspace.
 * A result is cached until the anchor's file changes (its mtime); results that depended on other
 * files (moved, gone) are cached until the workspace index refreshes.
 */
export class AnchorChecker {
  private readonly snapshots: FileSnapshots;
  private readonly search: WorkspaceSearch;
  private readonly cache = new Map<string, CachedCheck>();
  private readonly files: WorkspaceFiles;
  private generation = 0;
  private readonly searchGeneration = new Map<string, number>();

  constructor(files: WorkspaceFiles, options: { refreshMs?: number; now?: () => number } = {}) {
    this.files = files;
    this.snapshots = new FileSnapshots(files);
    this.search = new WorkspaceSearch(files, this.snapshots, options);
  }

  /** Indexes the workspace's files and declarations in the background, so content naming a symbol can be anchored. */
  warmUp(): Promise<void> {
    return this.search.warmUp();
  }

  /** Forgets what is known of `path` (the editor saw it change, move or go) and of moved code. */
  invalidate(path?: string): void {
    if (path !== undefined) this.snapshots.forget(path);
    this.search.invalidate();
    this.generation++;
  }

  async check(anchor: CodeAnchor): Promise<AnchorCheck> {
    const followed = anchor.current && anchor.current.path !== anchor.path ? anchor.current.path : null;
    const key = `${anchorKey(anchor)}\u0000${followed ?? ''}`;
    const mtimes = `${await this.files.modified(anchor.path)}/${followed ? await this.files.modified(followed) : ''}`;
    const cached = this.cache.get(key);
    const searched = this.searchGeneration.get(key);
    if (cached && cached.mtimes === mtimes && (searched === undefined || searched === this.generation))
      return cached.check;
    const { check: found, usedSearch } = await this.checkUncached(anchor);
    const check = await this.withResketch(anchor, found);
    this.cache.set(key, { mtimes, check });
    if (usedSearch) this.searchGeneration.set(key, this.generation);
    else this.searchGeneration.delete(key);
    return check;
  }

  /** A version-1 anchor found unchanged gets its current-version sketch, from the same code as it is now. */
  private async withResketch(anchor: CodeAnchor, check: AnchorCheck): Promise<AnchorCheck> {
    if (anchor.sketch === SKETCH_VERSION || check.similarity !== 1 || !check.current) return check;
    const file = await this.snapshots.get(check.current.path);
    const tokens = file ? codeTokens(file.text(check.current.lines.start, check.current.lines.end)) : [];
    return tokens.length > 0 ? { ...check, resketched: sketchOfTokens(tokens) } : check;
  }

  private async checkUncached(anchor: CodeAnchor): Promise<{ check: AnchorCheck; usedSearch: boolean }> {
    const file = await this.snapshots.get(anchor.path);
    const here = file ? this.inOwnFile(anchor, file) : null;
    if (!here) {
      const followed = await this.atFollowedPath(anchor);
      if (followed) return { check: followed, usedSearch: false };
    }
    // A symbol found in its file is the anchor's code, however changed; line anchors' code may have left for another file.
    if (here && (here.status !== 'changed' || anchor.symbol)) return { check: here, usedSearch: false };
    const elsewhere = await this.search.find(anchor, anchor.path);
    if (here && (!elsewhere || !isUnchanged(elsewhere))) return { check: here, usedSearch: true };
    if (!elsewhere) return { check: { status: 'gone' }, usedSearch: true };
    return {
      check: {
        status: isUnchanged(elsewhere) ? 'moved' : 'changed',
        current: where(elsewhere),
        similarity: round(elsewhere.similarity),
      },
      usedSearch: true,
    };
  }

  /** Where the editor followed the anchor to (a rename it saw), checked there; null when it is not there either. */
  private async atFollowedPath(anchor: CodeAnchor): Promise<AnchorCheck | null> {
    const current = anchor.current;
    if (!current || current.path === anchor.path) return null;
    const file = await this.snapshots.get(current.path);
    if (!file) return null;
    const located = locateIn(anchor, file) ?? (anchor.symbol ? null : compareAt(anchor, file, current.lines));
    if (!located) return null;
    return {
      status: isUnchanged(located) ? 'moved' : 'changed',
      current: where(located),
      similarity: round(located.similarity),
    };
  }

  /** The check within the anchor's own file; null when its symbol is not there (it may have moved). */
  private inOwnFile(anchor: CodeAnchor, file: FileSnapshot): AnchorCheck | null {
    if (anchor.symbol) {
      const symbol = symbolIn(anchor, file);
      if (!symbol) return null;
      const found = compareAt(anchor, file, { start: symbol.start, end: symbol.end });
      return {
        status: isUnchanged(found) ? 'fresh' : 'changed',
        current: where(found),
        similarity: round(found.similarity),
      };
    }
    const atLines = compareAt(anchor, file, anchor.lines);
    if (atLines.exact) return { status: 'fresh', current: where(atLines), similarity: 1 };
    const run = locateIn(anchor, file);
    if (run?.exact) {
      // The same code, reformatted onto other lines where it began: still where it was.
      const status = run.lines.start === anchor.lines.start ? 'fresh' : 'moved';
      return { status, current: where(run), similarity: 1 };
    }
    return {
      status: isUnchanged(atLines) ? 'fresh' : 'changed',
      current: where(atLines),
      similarity: round(atLines.similarity),
    };
  }

  /**
   * An anchor on a whole file the content names (by its path or a unique path suffix); null when no
   * such file exists, it is ambiguous, or it is too long to be about one piece of code.
   */
  async fileAnchor(named: string): Promise<CodeAnchor | null> {
    const path = anchorPathOrNull(named);
    if (!path) return null;
    const exact = await this.snapshots.get(path);
    const matches = exact ? [path] : this.search.filesEndingWith(path);
    if (matches.length !== 1) return null;
    const file = exact ?? (await this.snapshots.get(matches[0]));
    if (!file || file.lines.length > MAX_ANCHOR_LINES || codeTokens(file.lines.join('\n')).length === 0) return null;
    return anchorFor(file.path, file.lines.join('\n'), { start: 1, end: file.lines.length });
  }

  /**
   * An anchor on the one declaration of `name` in the workspace index; null when there is none or
   * several, or before the index exists (warmUp builds it; a store never waits for it).
   */
  async declarationAnchor(name: string): Promise<CodeAnchor | null> {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
    const declarations = this.search.declarationsOf(name);
    if (declarations.length !== 1) return null;
    const [{ path, symbol }] = declarations;
    const file = await this.snapshots.get(path);
    if (!file) return null;
    return anchorFor(
      path,
      file.text(symbol.start, symbol.end),
      { start: symbol.start, end: symbol.end },
      { name: symbol.name, kind: symbol.kind },
    );
  }

  /** Lines `start..end` of a workspace file as they are now; null when the file is gone. */
  async codeAt(path: string, start: number, end: number): Promise<string | null> {
    const file = await this.snapshots.get(path);
    return file ? file.text(start, end) : null;
  }

  /** An anchor for what the caller names: the symbol's declaration (its lines), else the given lines. */
  async create(input: AnchorInput): Promise<CodeAnchor> {
    const path = requireAnchorPath(input.path);
    const file = await this.snapshots.get(path);
    if (!file)
      throw new MemoryError('INVALID_INPUT', `anchors: no file ${path} in the workspace.`, {
        details: { field: 'anchors.path', path },
      });
    let lines = input.lines ? requireLines(input.lines, file) : null;
    let symbol: CodeAnchor['symbol'];
    if (input.symbol !== undefined) {
      const name = input.symbol.trim();
      const candidates = file.symbols.filter((found) => found.name === name);
      // With lines too, the declaration that holds them (overloads, same-named methods).
      const found =
        (lines && candidates.find((candidate) => candidate.start <= lines!.start && candidate.end >= lines!.end)) ??
        candidates[0];
      if (!found) {
        throw new MemoryError(
          'INVALID_INPUT',
          `anchors: no symbol "${name}" declared in ${path} (the CLI's symbol finder knows TS/JS, Python, Go, Rust and Java declarations; give lines instead).`,
          {
            details: { field: 'anchors.symbol', path, symbol: name },
          },
        );
      }
      symbol = { name: found.name, kind: found.kind };
      lines = { start: found.start, end: found.end };
    }
    if (!lines)
      throw new MemoryError('INVALID_INPUT', 'anchors: each anchor needs a symbol or lines.', {
        details: { field: 'anchors' },
      });
    return anchorFor(path, file.text(lines.start, lines.end), lines, symbol);
  }
}

/** An anchor on `code`, found at `lines` of `path`; the extension builds anchors with it from its own symbols. */
export function anchorFor(
  path: string,
  code: string,
  lines: { start: number; end: number },
  symbol?: CodeAnchor['symbol'],
): CodeAnchor {
  const tokens = codeTokens(code);
  if (tokens.length === 0)
    throw new MemoryError('INVALID_INPUT', `anchors: lines ${lines.start}-${lines.end} of ${path} hold no code.`, {
      details: { field: 'anchors.lines', path },
    });
  return {
    path,
    ...(symbol ? { symbol } : {}),
    lines: { start: lines.start, end: lines.end },
    ...sketchOfTokens(tokens),
  };
}

function requireLines(lines: { start: number; end: number }, file: FileSnapshot): { start: number; end: number } {
  const { start, end } = lines;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
    throw new MemoryError('INVALID_INPUT', 'anchors.lines needs whole numbers with 1 <= start <= end.', {
      details: { field: 'anchors.lines' },
    });
  }
  if (end - start + 1 > MAX_ANCHOR_LINES)
    throw new MemoryError('INVALID_INPUT', `anchors.lines covers more than ${MAX_ANCHOR_LINES} lines.`, {
      details: { field: 'anchors.lines' },
    });
  if (start > file.lines.length) {
    throw new MemoryError(
      'INVALID_INPUT',
      `anchors.lines starts at ${start} but ${file.path} has ${file.lines.length} lines.`,
      { details: { field: 'anchors.lines', path: file.path } },
    );
  }
  return { start, end: Math.min(end, file.lines.length) };
}

function where(located: Located): { path: string; lines: { start: number; end: number } } {
  return { path: located.path, lines: located.lines };
}

function round(value: number): number {
  return Math.round(Math.min(1, value) * 1000) / 1000;
}
