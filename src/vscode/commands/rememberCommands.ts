import * as vscode from 'vscode';
import type { StoreMemoryOutput } from '../../core/api/longTermApi.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import { isSensitivePath } from '../../core/editor/pathPrivacy.ts';
import { rememberText, secretWarning } from '../../core/editor/rememberText.ts';
import type { CommandDeps } from './commandDeps.ts';
import { ANCHORS_FIELD } from '../../core/anchors/anchorModel.ts';
import { anchorsForStore } from '../../core/anchors/storeAnchors.ts';
import { selectionAnchor } from '../anchors/editorAnchors.ts';
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
  const file = vscode.workspace.asRelativePath(editor.document.uri, false);
  const start = editor.selection.start.line + 1;
  const end = editor.selection.end.line + 1;
  const selected = editor.document.getText(editor.selection);
  const content = `From ${file}:${start}-${end} (${editor.document.languageId}):\n${selected}`;
  // The memory is about this code: anchored on it, so the editor can tell when the code changes.
  const anchor =
    editor.document.uri.scheme === 'file' ? await selectionAnchor(editor.document, editor.selection, file) : null;
  return store(deps, content, {
    source: 'selection',
    file,
    lines: `${start}-${end}`,
    ...(anchor ? { [ANCHORS_FIELD]: [anchor] } : {}),
  });
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
