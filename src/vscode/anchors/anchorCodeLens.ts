import * as vscode from 'vscode';
import { setting } from '../config/vscodeSettings.ts';
import type { AnchoredMemories } from './anchoredMemories.ts';
import { CHANGED_CODE_ACTIONS, lensTitle } from './anchorLensText.ts';
import { LensRedelivery } from './lensRedelivery.ts';

export const OPEN_ANCHORED_COMMAND = 'memory.openAnchoredMemories';

/**
 * A CodeLens above anchored code naming its memories; clicking opens them read-only. When the code
 * of one changed, the lens carries a warning icon and Review, Update and Forget beside it. A change of
 * the anchored memories is announced until the editors showing files have asked (lensRedelivery.ts),
 * so the lens appears once the anchor is checked even when the user left the editor meanwhile.
 */
export class AnchorCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly anchored: AnchoredMemories;
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changes.event;
  private readonly redelivery: LensRedelivery;
  private readonly subscription: vscode.Disposable;

  constructor(anchored: AnchoredMemories) {
    this.anchored = anchored;
    this.redelivery = new LensRedelivery(
      () => this.changes.fire(),
      () =>
        vscode.window.visibleTextEditors
          .filter((editor) => editor.document.uri.scheme === 'file')
          .map((editor) => editor.document.uri.toString()),
    );
    this.subscription = anchored.onDidChange(() => this.redelivery.changed());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    this.redelivery.asked(document.uri.toString());
    if (document.uri.scheme !== 'file' || !setting('anchors.codeLens')) return [];
    const path = vscode.workspace.asRelativePath(document.uri, false);
    const byLine = new Map<number, ReturnType<AnchoredMemories['at']>>();
    // Gone anchors have no code to stand above; they are found through Review Stale Memories.
    for (const entry of this.anchored.at(path)) {
      if (entry.anchor.status === 'gone') continue;
      const line = Math.min(Math.max(0, entry.lines.start - 1), Math.max(0, document.lineCount - 1));
      byLine.set(line, [...(byLine.get(line) ?? []), entry]);
    }
    return [...byLine].flatMap(([line, entries]) => {
      const memories = entries.map((entry) => ({
        memory_subtype: entry.memory.memory_subtype,
        content: entry.memory.content,
        anchor: entry.anchor,
      }));
      const range = new vscode.Range(line, 0, line, 0);
      const changed = [
        ...new Set(entries.filter((entry) => entry.anchor.status === 'changed').map((entry) => entry.memory.memory_id)),
      ];
      return [
        new vscode.CodeLens(range, {
          title: lensTitle(memories),
          tooltip: changed.length > 0 ? 'The code changed since these memories were stored: are they still true?' : '',
          command: OPEN_ANCHORED_COMMAND,
          arguments: [entries.map((entry) => entry.memory.memory_id)],
        }),
        ...(changed.length > 0
          ? CHANGED_CODE_ACTIONS.map(
              (action) =>
                new vscode.CodeLens(range, {
                  title: action.title,
                  tooltip: action.tooltip,
                  command: action.command,
                  arguments: [changed],
                }),
            )
          : []),
      ];
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.redelivery.dispose();
    this.changes.dispose();
  }
}
