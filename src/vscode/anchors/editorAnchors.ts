import * as vscode from 'vscode';
import { anchorFor } from '../../core/anchors/anchorChecker.ts';
import type { CodeAnchor } from '../../core/anchors/anchorModel.ts';
import { findSymbols } from '../../core/anchors/symbolFinder.ts';

/** A symbol counts as the selection when their first and last lines are this close. */
const SYMBOL_SLACK_LINES = 1;

/**
 * The anchor of a selection: the editor's own symbol (its language server, through
 * vscode.executeDocumentSymbolProvider) when the selection is that declaration, else the selected lines.
 */
export async function selectionAnchor(
  document: vscode.TextDocument,
  selection: vscode.Range,
  path: string,
): Promise<CodeAnchor | null> {
  const start = selection.start.line;
  // A selection ending at column 0 of the next line ends, for the user, on the line before.
  const end = selection.end.character === 0 && selection.end.line > start ? selection.end.line - 1 : selection.end.line;
  const found = matchingSymbol(await documentSymbols(document.uri), start, end);
  // The checks find symbols with the core's regex finder: a symbol it cannot see would read as gone
  // at the first check, so such a selection is anchored by its lines (whose code is then tracked).
  const symbol =
    found && findSymbols(path, document.getText()).some((candidate) => candidate.name === found.name) ? found : null;
  const from = symbol ? symbol.range.start.line : start;
  const to = symbol ? symbol.range.end.line : end;
  const code = document.getText(new vscode.Range(from, 0, to, document.lineAt(to).text.length));
  if (code.trim() === '') return null;
  return anchorFor(
    path,
    code,
    { start: from + 1, end: to + 1 },
    symbol ? { name: symbol.name, kind: symbolKindName(symbol.kind) } : undefined,
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

async function documentSymbols(uri: vscode.Uri): Promise<vscode.DocumentSymbol[]> {
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
