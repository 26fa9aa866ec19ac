import {
  CHANGED_THRESHOLD,
  codeTokens,
  fingerprintOfTokens,
  sketchSimilarity,
  tokenSketch,
} from './codeFingerprint.ts';
import type { CodeAnchor, LineRange } from './anchorModel.ts';
import type { FileSnapshot } from './fileSnapshots.ts';
import type { FoundSymbol } from './symbolFinder.ts';

/** Where anchored code was found in one file, and how close it is to the code when anchored. */
export interface Located {
  path: string;
  lines: LineRange;
  /** 1 when the fingerprint matches (same code up to formatting), else the token similarity. */
  similarity: number;
}

/** How the code at `lines` of `file` compares to the anchored code. */
export function compareAt(anchor: CodeAnchor, file: FileSnapshot, lines: LineRange): Located {
  const tokens = codeTokens(file.text(lines.start, lines.end));
  const similarity =
    fingerprintOfTokens(tokens) === anchor.fingerprint ? 1 : sketchSimilarity(anchor.tokens, tokenSketch(tokens));
  return { path: file.path, lines, similarity };
}

/** The anchor's symbol in this file: the same-named declaration (same kind first) closest to where it was. */
export function symbolIn(anchor: CodeAnchor, file: FileSnapshot): FoundSymbol | null {
  const symbol = anchor.symbol;
  if (!symbol) return null;
  const named = file.symbols.filter((found) => found.name === symbol.name);
  const sameKind = named.filter((found) => found.kind === symbol.kind);
  const pool = sameKind.length > 0 ? sameKind : named;
  let best: FoundSymbol | null = null;
  for (const found of pool) {
    if (!best || Math.abs(found.start - anchor.lines.start) < Math.abs(best.start - anchor.lines.start)) best = found;
  }
  return best;
}

/**
 * The anchored code found again in this file exactly (up to formatting): a run of `anchor.size`
 * tokens starting at a line whose fingerprint matches. Reformatting can change the line count, so
 * runs are measured in tokens, not lines. The run nearest the anchor's old lines wins.
 */
export function exactRunIn(anchor: CodeAnchor, file: FileSnapshot): LineRange | null {
  const lineTokens = file.lineTokens;
  let best: LineRange | null = null;
  for (let start = 0; start < lineTokens.length; start++) {
    if (lineTokens[start].length === 0) continue;
    const run: string[] = [];
    let end = start;
    while (end < lineTokens.length && run.length < anchor.size) run.push(...lineTokens[end++]);
    if (run.length !== anchor.size) continue;
    if (fingerprintOfTokens(run) !== anchor.fingerprint) continue;
    const found = { start: start + 1, end };
    if (!best || Math.abs(found.start - anchor.lines.start) < Math.abs(best.start - anchor.lines.start)) best = found;
  }
  return best;
}

/** The anchor found in a file by symbol, else by an exact run of its code. */
export function locateIn(anchor: CodeAnchor, file: FileSnapshot): Located | null {
  const symbol = symbolIn(anchor, file);
  if (symbol) return compareAt(anchor, file, { start: symbol.start, end: symbol.end });
  const run = exactRunIn(anchor, file);
  return run ? { path: file.path, lines: run, similarity: 1 } : null;
}

export function isUnchanged(located: Located): boolean {
  return located.similarity >= CHANGED_THRESHOLD;
}
