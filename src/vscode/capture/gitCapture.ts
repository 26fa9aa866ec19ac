import * as vscode from 'vscode';
import { describeGitBranch } from '../../core/editor/contextItems.ts';
import type { CaptureContext, CaptureSource } from './captureContext.ts';

/** The slice of the built-in git extension's API (extensions/git/src/api/git.d.ts) used here. */
interface GitRepository {
  rootUri: vscode.Uri;
  state: { HEAD?: { name?: string }; onDidChange: vscode.Event<void> };
}
interface GitApi {
  repositories: GitRepository[];
  onDidOpenRepository: vscode.Event<GitRepository>;
}

/** The current branch of the workspace's repository, from the vscode.git extension when present. */
export class GitCapture implements CaptureSource {
  private readonly context: CaptureContext;
  private readonly subscriptions: vscode.Disposable[] = [];
  private api: GitApi | undefined;

  constructor(context: CaptureContext) {
    this.context = context;
    void this.connect();
  }

  refresh(): void {
    if (!this.context.enabled('capture.git')) return this.context.sink.submit('git', null);
    const repository = this.api?.repositories[0];
    if (!repository) return this.context.sink.submit('git', null);
    const name = vscode.workspace.asRelativePath(repository.rootUri, true);
    this.context.sink.submit(
      'git',
      describeGitBranch(repository.state.HEAD?.name ?? null, name === repository.rootUri.fsPath ? null : name),
    );
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private async connect(): Promise<void> {
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    if (!extension) {
      this.context.log.info('The git extension is not available: the branch is not captured.');
      return;
    }
    try {
      const exports = extension.isActive ? extension.exports : await extension.activate();
      this.api = exports.getAPI(1);
    } catch (error) {
      this.context.log.error('Cannot use the git extension', error);
      return;
    }
    const watch = (repository: GitRepository): void => {
      this.subscriptions.push(repository.state.onDidChange(() => this.refresh()));
    };
    this.api.repositories.forEach(watch);
    this.subscriptions.push(
      this.api.onDidOpenRepository((repository) => {
        watch(repository);
        this.refresh();
      }),
    );
    this.refresh();
  }
}
