import { schemeOf } from './codeFingerprint.ts';
import type { CodeAnchor } from './anchorModel.ts';
import { isUnchanged, locateIn, type Located } from './codeLocator.ts';
import type { FileSnapshot, FileSnapshots } from './fileSnapshots.ts';
import { languageOf, type FoundSymbol } from './symbolFinder.ts';
import type { WorkspaceFiles } from './workspaceFiles.ts';

/** Files whose tokens contain at least this share of the anchor's are searched for it line by line. */
const CONTAINMENT_FLOOR = 0.6;
/** At most this many candidate files are searched line by line per anchor. */
const MAX_CANDIDATES = 5;

interface IndexedFile {
  snapshot: FileSnapshot;
  /** Distinct token hashes of the whole file per sketch version; computed on the first line-anchor search that needs them. */
  tokens: Map<number, Set<number>>;
  symbols: Set<string>;
}

/**
 * Finds anchored code that left its file (moved, renamed, split out): by the symbol's name in files
 * of the same language, else by token containment then an exact run. The index of the workspace is
 * built on the first search and refreshed at most every `refreshMs` (files re-read only when their
 * mtime changed), so a burst of checks lists the workspace once.
 */
export class WorkspaceSearch {
  private readonly files: WorkspaceFiles;
  private readonly snapshots: FileSnapshots;
  private readonly refreshMs: number;
  private readonly now: () => number;
  private index = new Map<string, IndexedFile>();
  private builtAt = Number.NEGATIVE_INFINITY;
  private building: Promise<void> | null = null;

  constructor(
    files: WorkspaceFiles,
    snapshots: FileSnapshots,
    options: { refreshMs?: number; now?: () => number } = {},
  ) {
    this.files = files;
    this.snapshots = snapshots;
    this.refreshMs = options.refreshMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Drops the index so the next search lists the workspace again (after a rename or delete the editor saw). */
  invalidate(): void {
    this.builtAt = Number.NEGATIVE_INFINITY;
  }

  /** The best place outside `excludePath` where the anchor's code is now, or null. */
  async find(anchor: CodeAnchor, excludePath: string): Promise<Located | null> {
    await this.ensureIndex();
    const language = languageOf(anchor.path);
    const candidates: IndexedFile[] = [];
    if (anchor.symbol) {
      for (const file of this.index.values()) {
        if (
          file.snapshot.path !== excludePath &&
          file.symbols.has(anchor.symbol.name) &&
          languageOf(file.snapshot.path) === language
        )
          candidates.push(file);
      }
    } else {
      const scored: Array<{ file: IndexedFile; share: number }> = [];
      const scheme = schemeOf(anchor);
      for (const file of this.index.values()) {
        if (file.snapshot.path === excludePath) continue;
        let tokens = file.tokens.get(scheme.version);
        if (!tokens) {
          tokens = new Set(scheme.sketch(file.snapshot.lineTokensIn(scheme).flat(), Number.POSITIVE_INFINITY));
          file.tokens.set(scheme.version, tokens);
        }
        const share = containment(anchor.tokens, tokens);
        if (share >= CONTAINMENT_FLOOR) scored.push({ file, share });
      }
      scored.sort((a, b) => b.share - a.share);
      candidates.push(...scored.slice(0, MAX_CANDIDATES).map((entry) => entry.file));
    }
    let best: { located: Located; score: number } | null = null;
    const baseName = anchor.path.slice(anchor.path.lastIndexOf('/') + 1);
    for (const file of candidates) {
      const located = locateIn(anchor, file.snapshot);
      if (!located) continue;
      // The same code first; then the closest; equal: a file of the same name (a folder renamed) is the likelier home.
      const sameName = file.snapshot.path.endsWith(`/${baseName}`) || file.snapshot.path === baseName;
      const score = (located.exact ? 2 : 0) + located.similarity + (sameName ? 0.0001 : 0);
      if (!best || score > best.score) best = { located, score };
    }
    return best && (isUnchanged(best.located) || anchor.symbol) ? best.located : null;
  }

  /** Builds the index ahead of the first search (a server with a workspace starts it in the background). */
  warmUp(): Promise<void> {
    return this.ensureIndex();
  }

  /** Indexed files ending with `/path` (content often names a file by a shorter path); [] before the index exists. */
  filesEndingWith(path: string): string[] {
    return [...this.index.keys()].filter((candidate) => candidate.endsWith(`/${path}`));
  }

  /** Every declaration of `name` in the index as it is (never built or refreshed here: storing a memory must not read the workspace). */
  declarationsOf(name: string): Array<{ path: string; symbol: FoundSymbol }> {
    const found: Array<{ path: string; symbol: FoundSymbol }> = [];
    for (const file of this.index.values()) {
      if (!file.symbols.has(name)) continue;
      for (const symbol of file.snapshot.symbols)
        if (symbol.name === name) found.push({ path: file.snapshot.path, symbol });
    }
    return found;
  }

  private async ensureIndex(): Promise<void> {
    if (this.now() - this.builtAt < this.refreshMs) return;
    this.building ??= this.build().finally(() => {
      this.building = null;
    });
    await this.building;
  }

  private async build(): Promise<void> {
    const paths = await this.files.list();
    const next = new Map<string, IndexedFile>();
    for (const path of paths) {
      const snapshot = await this.snapshots.get(path);
      if (!snapshot) continue;
      const previous = this.index.get(path);
      if (previous && previous.snapshot === snapshot) {
        next.set(path, previous);
        continue;
      }
      next.set(path, {
        snapshot,
        tokens: new Map(),
        symbols: new Set(snapshot.symbols.map((symbol) => symbol.name)),
      });
    }
    this.index = next;
    this.builtAt = this.now();
  }
}

/** Share of the anchor's distinct tokens the file also has. */
function containment(anchorTokens: readonly number[], fileTokens: ReadonlySet<number>): number {
  if (anchorTokens.length === 0) return 0;
  let shared = 0;
  for (const token of anchorTokens) if (fileTokens.has(token)) shared++;
  return shared / anchorTokens.length;
}
