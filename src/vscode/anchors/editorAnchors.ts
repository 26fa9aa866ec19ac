import * as vscode from 'vscode';
import { anchorFor } from '../../core/anchors/anchorChecker.ts';
import type { CodeAnchor } from '../../core/anchors/anchorModel.ts';
import { findSymbols } from '../../core/anchors/symbolFinder.ts';

/** A symbol counts as the selection when their first and last lines are this close. */
const SYMBOL_SLACK_LINES = 1;

/** The selection's lines, 0-based: a selection ending at column 0 of the next line ends, for the user, on the line before. */
export function selectedLines(selection: vscode.Range): { start: number; end: number } {
  const start = selection.start.line;
  const end = selection.end.character === 0 && selection.end.line > start ? selection.end.line - 1 : selection.end.line;
  return { start, end };
}

/** The anchor on the selected lines: made at once, without the language server (Remember Selection stores with it). */
export function selectionLinesAnchor(
  document: vscode.TextDocument,
  selection: vscode.Range,
  path: string,
): CodeAnchor | null {
  const { start, end } = selectedLines(selection);
  return linesAnchor(document, path, start + 1, end + 1);
}

/**
 * The anchor on the declaration the selection is, by the editor's own symbols (its language server,
 * vscode.executeDocumentSymbolProvider); null when the selection is no one declaration. The checks
 * find symbols with the core's regex finder, so the anchor takes that finder's lines for the same
 * declaration: a symbol it cannot see would read as gone at the first check, and other lines (a
 * decorator the language server counts) would read as changed.
 */
export function symbolSelectionAnchor(
  document: vscode.TextDocument,
  selection: vscode.Range,
  path: string,
  symbols: readonly vscode.DocumentSymbol[],
): CodeAnchor | null {
  const { start, end } = selectedLines(selection);
  const found = matchingSymbol(symbols, start, end);
  if (!found) return null;
  const declared = findSymbols(path, document.getText()).filter((candidate) => candidate.name === found.name);
  const nearest = declared.sort(
    (a, b) => Math.abs(a.start - 1 - found.range.start.line) - Math.abs(b.start - 1 - found.range.start.line),
  )[0];
  if (!nearest) return null;
  const code = document.getText(
    new vscode.Range(
      nearest.start - 1,
      0,
      nearest.end - 1,
      document.lineAt(Math.min(nearest.end, document.lineCount) - 1).text.length,
    ),
  );
  if (code.trim() === '') return null;
  return anchorFor(
    path,
    code,
    { start: nearest.start, end: nearest.end },
    { name: found.name, kind: symbolKindName(found.kind) },
  );
}

/** The anchor on lines `start..end` (1-based) of an open document, e.g. where a resolved error was. */
export function linesAnchor(
  document: vscode.TextDocument,
  path: string,
  start: number,
  end: number,
): CodeAnchor | null {
  const last = Math.min(end, document.lineCount);
  if (start < 1 || start > last) return null;
  const code = document.getText(new vscode.Range(start - 1, 0, last - 1, document.lineAt(last - 1).text.length));
  return code.trim() === '' ? null : anchorFor(path, code, { start, end: last });
}

/** The document's symbols from its language server; the first request of a session can take seconds (TypeScript: 7–9 s). */
export async function documentSymbols(uri: vscode.Uri): Promise<vscode.DocumentSymbol[]> {
  const result = await vscode.commands.executeCommand<
    Array<vscode.DocumentSymbol | vscode.SymbolInformation> | undefined
  >('vscode.executeDocumentSymbolProvider', uri);
  // Providers answer with hierarchical DocumentSymbols or flat SymbolInformation; flat ones carry no body range worth matching.
  return (result ?? []).filter((symbol): symbol is vscode.DocumentSymbol => 'children' in symbol);
}

function matchingSymbol(
  symbols: readonly vscode.DocumentSymbol[],
  start: number,
  end: number,
): vscode.DocumentSymbol | null {
  for (const symbol of symbols) {
    if (
      Math.abs(symbol.range.start.line - start) <= SYMBOL_SLACK_LINES &&
      Math.abs(symbol.range.end.line - end) <= SYMBOL_SLACK_LINES
    )
      return symbol;
    if (symbol.range.start.line <= start && symbol.range.end.line >= end) {
      const inner = matchingSymbol(symbol.children, start, end);
      if (inner) return inner;
    }
  }
  return null;
}

/** The core's symbol finder names kinds in lower case (function, class, method…); the editor's enum is mapped to the same words. */
export function symbolKindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'symbol').toLowerCase();
}
