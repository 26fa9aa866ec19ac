import * as vscode from 'vscode';
import { describeActiveEditor, describeVisibleEditors } from '../../core/editor/contextItems.ts';
import type { CaptureContext, CaptureSource } from './captureContext.ts';

/** The active file, cursor and selection, and the list of visible editors. */
export class EditorCapture implements CaptureSource {
  private readonly context: CaptureContext;
  private readonly subscriptions: vscode.Disposable[];

  constructor(context: CaptureContext) {
    this.context = context;
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshActive()),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.textEditor === vscode.window.activeTextEditor) this.refreshActive();
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshVisible()),
    ];
  }

  refresh(): void {
    this.refreshActive();
    this.refreshVisible();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private refreshActive(): void {
    const editor = vscode.window.activeTextEditor;
    if (!this.context.enabled('capture.activeEditor')) return this.context.sink.submit('active', null);
    // Focus moving to the terminal or output leaves the last file as the best description.
    if (!editor) return;
    const path = this.context.capturablePath(editor.document.uri);
    if (path === null) return this.context.sink.submit('active', null);
    const selection = editor.selection;
    this.context.sink.submit(
      'active',
      describeActiveEditor({
        path,
        languageId: editor.document.languageId,
        lineCount: editor.document.lineCount,
        cursorLine: selection.active.line + 1,
        ...(selection.isEmpty
          ? {}
          : {
              selection: {
                startLine: selection.start.line + 1,
                endLine: selection.end.line + 1,
                text: editor.document.getText(selection),
              },
            }),
      }),
    );
  }

  private refreshVisible(): void {
    if (!this.context.enabled('capture.openEditors')) return this.context.sink.submit('editors', null);
    const paths = vscode.window.visibleTextEditors
      .map((editor) => this.context.capturablePath(editor.document.uri))
      .filter((path): path is string => path !== null);
    this.context.sink.submit('editors', describeVisibleEditors(paths));
  }
}
