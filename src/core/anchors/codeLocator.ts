import { compareTokens, schemeOf } from './codeFingerprint.ts';
import type { CodeAnchor, LineRange } from './anchorModel.ts';
import type { FileSnapshot } from './fileSnapshots.ts';
import type { FoundSymbol } from './symbolFinder.ts';

/** Where anchored code was found in one file, and how close it is to the code when anchored. */
export interface Located {
  path: string;
  lines: LineRange;
  /** The fingerprint matches: the same code up to formatting, so the same behaviour. */
  exact: boolean;
  /** 1 when exact, else the similarity of the token sketches (below 1). */
  similarity: number;
}

/** How the code at `lines` of `file` compares to the anchored code. */
export function compareAt(anchor: CodeAnchor, file: FileSnapshot, lines: LineRange): Located {
  const tokens = schemeOf(anchor).tokens(file.text(lines.start, lines.end));
  return { path: file.path, lines, ...compareTokens(anchor, tokens) };
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
  const scheme = schemeOf(anchor);
  const lineTokens = file.lineTokensIn(scheme);
  let best: LineRange | null = null;
  for (let start = 0; start < lineTokens.length; start++) {
    if (lineTokens[start].length === 0) continue;
    const run: string[] = [];
    let end = start;
    while (end < lineTokens.length && run.length < anchor.size) run.push(...lineTokens[end++]);
    if (run.length !== anchor.size) continue;
    if (scheme.fingerprint(run) !== anchor.fingerprint) continue;
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
  return run ? { path: file.path, lines: run, exact: true, similarity: 1 } : null;
}

/** Unchanged up to formatting: any change of behaviour (an operator, a call, a literal, a name) is a change. */
export function isUnchanged(located: Located): boolean {
  return located.exact;
}
