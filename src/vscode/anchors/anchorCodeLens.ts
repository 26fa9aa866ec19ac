import * as vscode from 'vscode';
import { setting } from '../config/vscodeSettings.ts';
import type { AnchoredMemories } from './anchoredMemories.ts';
import { lensTitle } from './anchorLensText.ts';

export const OPEN_ANCHORED_COMMAND = 'memory.openAnchoredMemories';

/** A CodeLens above anchored code naming its memories; clicking opens them read-only. */
export class AnchorCodeLens implements vscode.CodeLensProvider {
  private readonly anchored: AnchoredMemories;
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(anchored: AnchoredMemories) {
    this.anchored = anchored;
    this.onDidChangeCodeLenses = anchored.onDidChange;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (document.uri.scheme !== 'file' || !setting('anchors.codeLens')) return [];
    const path = vscode.workspace.asRelativePath(document.uri, false);
    const byLine = new Map<number, ReturnType<AnchoredMemories['at']>>();
    // Gone anchors have no code to stand above; they are found through Review Stale Memories.
    for (const entry of this.anchored.at(path)) {
      if (entry.anchor.status === 'gone') continue;
      const line = Math.min(Math.max(0, entry.lines.start - 1), Math.max(0, document.lineCount - 1));
      byLine.set(line, [...(byLine.get(line) ?? []), entry]);
    }
    return [...byLine].map(([line, entries]) => {
      const memories = entries.map((entry) => ({
        memory_subtype: entry.memory.memory_subtype,
        content: entry.memory.content,
        anchor: entry.anchor,
      }));
      return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title: lensTitle(memories),
        command: OPEN_ANCHORED_COMMAND,
        arguments: [entries.map((entry) => entry.memory.memory_id)],
      });
    });
  }
}
