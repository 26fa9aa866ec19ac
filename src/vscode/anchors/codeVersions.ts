import * as vscode from 'vscode';

const SCHEME = 'fml-code';
/** Versions kept for diffs the user opened; the oldest go first past this. */
const MAX_VERSIONS = 50;

/**
 * Read-only documents holding one version of a piece of code (as a memory quoted it, or as it is
 * now), so Review can show them side by side in VS Code's diff editor without an Untitled buffer.
 */
export class CodeVersions implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  /** A URI for `text`, named like the file it comes from (so the language is recognised). */
  uri(key: string, path: string, text: string): vscode.Uri {
    this.texts.delete(key);
    this.texts.set(key, text);
    if (this.texts.size > MAX_VERSIONS) this.texts.delete(this.texts.keys().next().value as string);
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${path}`, query: key });
    this.changes.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? 'This version is no longer kept: open Review again.';
  }

  dispose(): void {
    this.registration.dispose();
    this.changes.dispose();
  }
}
