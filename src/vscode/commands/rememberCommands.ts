import * as vscode from 'vscode';
import type { StoreMemoryOutput } from '../../core/api/longTermApi.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import { isSensitivePath } from '../../core/editor/pathPrivacy.ts';
import { rememberText, secretWarning } from '../../core/editor/rememberText.ts';
import type { CommandDeps } from './commandDeps.ts';
import { ANCHORS_FIELD } from '../../core/anchors/anchorModel.ts';
import { anchorsForStore } from '../../core/anchors/storeAnchors.ts';
import {
  documentSymbols,
  selectedLines,
  selectionLinesAnchor,
  symbolSelectionAnchor,
} from '../anchors/editorAnchors.ts';
import type { CodeAnchor } from '../../core/anchors/anchorModel.ts';
import { findSymbols } from '../../core/anchors/symbolFinder.ts';
import {
  enclosingSymbol,
  noteFrom,
  notePrefill,
  type SelectedCode,
  selectionContent,
} from '../../core/editor/selectionMemory.ts';
import { confirmRemembered } from './rememberConfirmation.ts';

export async function rememberCommand(deps: CommandDeps, text?: string): Promise<StoreMemoryOutput | undefined> {
  const content =
    text ??
    (await vscode.window.showInputBox({
      title: 'Remember',
      prompt: 'A decision, fact, convention or preference worth keeping',
      placeHolder: 'e.g. We use pnpm, not npm, in this repository',
      ignoreFocusOut: true,
      // Flagged while typing, so a refused secret never costs the user the rest of what they wrote.
      validateInput: (value) => secretWarning(value),
    }));
  if (!content || content.trim() === '') return undefined;
  // Files and declared symbols the text names that exist in the workspace become its anchors.
  const anchors = deps.anchors ? await anchorsForStore(deps.anchors.checker, { content }) : [];
  return store(deps, content.trim(), {
    source: 'command',
    ...(anchors.length > 0 ? { [ANCHORS_FIELD]: anchors } : {}),
  });
}

/** How long the note's prefill waits for the language server's symbols before using the core's finder. */
const PREFILL_WAIT_MS = 150;
/** How long the anchor waits for the language server after the memory is stored; past it the line anchor stays. */
const SYMBOLS_WAIT_MS = 120_000;

/**
 * Remember Selection (issue #32 point 2): asks for a one-line note (prefilled with the enclosing
 * declaration's name), stores at once anchored on the selected lines, and once the language server
 * has answered re-anchors the memory on the declaration the selection is. The store never waits on
 * the language server, whose first answer in a session can take seconds.
 */
export async function rememberSelectionCommand(deps: CommandDeps): Promise<StoreMemoryOutput | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage('Select some text first, then run "Memory: Remember Selection".');
    return undefined;
  }
  if (isSensitivePath(editor.document.uri.fsPath)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${vscode.workspace.asRelativePath(editor.document.uri)} usually holds credentials; it is never stored.`,
    );
  }
  const { document, selection } = editor;
  const version = document.version;
  const file = vscode.workspace.asRelativePath(document.uri, false);
  const onDisk = document.uri.scheme === 'file';
  const lines = selectedLines(selection);
  const selected: SelectedCode = {
    file,
    start: lines.start + 1,
    end: lines.end + 1,
    language: document.languageId,
    code: document.getText(selection),
  };
  // Asked now, answered while the user types the note; never awaited before the store.
  const symbols = onDisk ? settle(documentSymbols(document.uri)) : null;
  const note = noteFrom(
    await vscode.window.showInputBox({
      title: `Remember Selection: ${file}:${selected.start}-${selected.end}`,
      prompt: 'Why does this code matter? One line (Enter stores it; Escape stores the code without a note)',
      value: notePrefill(await enclosingName(document, file, lines, symbols)),
      ignoreFocusOut: true,
      validateInput: (value) => secretWarning(value),
    }),
  );
  // The memory is about this code: anchored on its lines now, so the editor can tell when the code changes.
  const linesAnchor = onDisk ? selectionLinesAnchor(document, selection, file) : null;
  const answered = symbols?.settled();
  const symbolAnchor =
    answered && document.version === version ? symbolSelectionAnchor(document, selection, file, answered) : null;
  const anchor = symbolAnchor ?? linesAnchor;
  const result = await store(deps, selectionContent(note, selected), {
    source: 'selection',
    file,
    lines: `${selected.start}-${selected.end}`,
    ...(note ? { note } : {}),
    ...(anchor ? { [ANCHORS_FIELD]: [anchor] } : {}),
  });
  // Without a folder on disk nothing checks anchors (deps.anchors is null): the line anchor is as good as any.
  if (
    deps.anchors &&
    symbols &&
    linesAnchor &&
    !symbolAnchor &&
    result.similar_existing?.action !== 'skipped_duplicate'
  )
    void anchorOnDeclarationLater(deps, result.memory_id, linesAnchor, { document, selection, file, version, symbols });
  return result;
}

/** The declaration holding the selection: the language server's when it answered quickly, else the core finder's. */
async function enclosingName(
  document: vscode.TextDocument,
  file: string,
  lines: { start: number; end: number },
  symbols: Settling<vscode.DocumentSymbol[]> | null,
): Promise<string | null> {
  const answered = symbols ? await symbols.within(PREFILL_WAIT_MS) : null;
  const fromServer = answered ? innermostDocumentSymbol(answered, lines.start, lines.end) : null;
  return (
    fromServer?.name ??
    enclosingSymbol(findSymbols(file, document.getText()), lines.start + 1, lines.end + 1)?.name ??
    null
  );
}

/** Once the language server answers, the stored line anchor becomes the declaration's, through one change of the memory. */
async function anchorOnDeclarationLater(
  deps: CommandDeps,
  memoryId: string,
  stored: CodeAnchor,
  at: {
    document: vscode.TextDocument;
    selection: vscode.Range;
    file: string;
    version: number;
    symbols: Settling<vscode.DocumentSymbol[]>;
  },
): Promise<void> {
  try {
    const symbols = await at.symbols.within(SYMBOLS_WAIT_MS);
    // Edited meanwhile: the symbols describe other text than the one anchored; the line anchor stays.
    if (!symbols || at.document.version !== at.version || at.document.isClosed) return;
    const declaration = symbolSelectionAnchor(at.document, at.selection, at.file, symbols);
    if (!declaration) return;
    if (await deps.anchors?.replaceAnchor(memoryId, stored, declaration))
      deps.log.info(`Anchored ${memoryId} on ${at.file}#${declaration.symbol?.name ?? ''}.`);
  } catch (error) {
    deps.log.error(`Cannot anchor ${memoryId} on its declaration; it stays anchored on its lines`, error);
  }
}

function innermostDocumentSymbol(
  symbols: readonly vscode.DocumentSymbol[],
  start: number,
  end: number,
): vscode.DocumentSymbol | null {
  for (const symbol of symbols) {
    if (symbol.range.start.line <= start && symbol.range.end.line >= end)
      return innermostDocumentSymbol(symbol.children, start, end) ?? symbol;
  }
  return null;
}

/** A promise whose answer can be read without waiting (settled) or with a time limit (within). */
interface Settling<T> {
  settled(): T | null;
  within(ms: number): Promise<T | null>;
}

function settle<T>(promise: Promise<T>): Settling<T> {
  let value: T | null = null;
  const done = promise.then(
    (answer) => {
      value = answer;
      return answer;
    },
    () => null,
  );
  return {
    settled: () => value,
    within: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ms);
      });
      try {
        return await Promise.race([done, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

async function store(
  deps: CommandDeps,
  content: string,
  metadata: Record<string, unknown>,
): Promise<StoreMemoryOutput> {
  const { core, identity } = await deps.host.ready();
  const { result, classification } = await rememberText(core, identity, content, metadata);
  deps.log.info(
    `Stored ${result.memory_id} (${classification.memory_category}/${classification.memory_subtype}; ${result.similar_existing?.action ?? 'new'})`,
  );
  confirmRemembered(deps, identity.userId, result, classification);
  return result;
}
