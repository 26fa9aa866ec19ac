import * as vscode from 'vscode';
import { settingId } from '../../core/domain/settingIds.ts';
import { setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import type { MemoryHost, ReadyMemory } from '../runtime/memoryHost.ts';

/** The report of one sync pass as the core returns it (the daemon sends it as JSON). */
type SyncReport = Awaited<ReturnType<ReadyMemory['core']['shareProjectMemories']>>;

/** A burst of file events (a checkout) is one pass. */
const DEBOUNCE_MS = 500;
/** Reasons where the two sides disagreed and one won: the user is told which. */
const RESOLVED_CONFLICT = /^(both-changed|edited-in|deleted-in-store-after)/;

/**
 * The window's side of "Share Project Memories in This Repository" (issue #34): while the setting
 * is on in a trusted folder on disk, the memory process syncs the folder's `.memory/` files (it
 * watches them itself); this asks for a pass when the editor sees the files change, shows each
 * pass's problems in the Problems panel with file and line, and says when a conflict was resolved.
 */
export class RepoMemoryController implements vscode.Disposable {
  private readonly host: MemoryHost;
  private readonly log: Log;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('Firebolt Memory');
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shared: string | null = null;

  constructor(host: MemoryHost, log: Log) {
    this.host = host;
    this.log = log;
    const watcher = vscode.workspace.createFileSystemWatcher('**/.memory/*.md');
    this.disposables.push(
      this.diagnostics,
      watcher,
      watcher.onDidChange(() => this.soon()),
      watcher.onDidCreate(() => this.soon()),
      watcher.onDidDelete(() => this.soon()),
      host.onDidChange((ready) => {
        // A reopened core (a new memory process) shares nothing yet.
        this.shared = null;
        if (ready) this.soon();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(settingId('repoMemories'))) this.soon();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.soon()),
    );
  }

  /** The folder whose memories may be shared: the first one, on disk, trusted. */
  private folder(): vscode.WorkspaceFolder | null {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder && folder.uri.scheme === 'file' && vscode.workspace.isTrusted ? folder : null;
  }

  /** Turns the setting on for this folder (the command), then shares at once. */
  async enable(): Promise<SyncReport | null> {
    const folder = this.folder();
    if (!folder) {
      void vscode.window.showWarningMessage(
        'Project memories are shared in a trusted folder on disk: open one (and trust it) first.',
      );
      return null;
    }
    await vscode.workspace
      .getConfiguration(undefined, folder.uri)
      .update(settingId('repoMemories.enabled'), true, vscode.ConfigurationTarget.WorkspaceFolder);
    const report = await this.apply();
    if (report)
      void vscode.window.showInformationMessage(
        `Project memories are shared in ${folder.name}/.memory/ — ${report.resolutions.length} change(s) in the first sync. Commit the folder to share them with your team.`,
      );
    return report;
  }

  /** Writes the marked section of an instructions file once, from the pinned project memories. */
  async writeAgentsSection(file?: string): Promise<unknown> {
    const folder = this.folder();
    if (!folder) throw new Error('Open a trusted folder on disk to write its instructions file.');
    const path =
      file ??
      (
        await vscode.window.showQuickPick(['AGENTS.md', '.github/copilot-instructions.md', 'CLAUDE.md'], {
          placeHolder: 'Which file agents without MCP read',
        })
      )?.toString();
    if (!path) return null;
    const { core, identity } = await this.host.ready();
    if (!identity.workspaceProjectId) throw new Error('This folder has no project id.');
    const result = await core.exportAgentsSection({
      workspace_dir: folder.uri.fsPath,
      project_id: identity.workspaceProjectId,
      path: path as Parameters<ReadyMemory['core']['exportAgentsSection']>[0]['path'],
    });
    void vscode.window.showInformationMessage(
      `${result.changed ? 'Wrote' : 'Already up to date:'} ${result.path} — ${result.included} pinned project memor${result.included === 1 ? 'y' : 'ies'}${result.omitted ? `, ${result.omitted} left out by the token budget` : ''}.`,
    );
    return result;
  }

  private soon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.apply().catch((error: unknown) => this.log.error('Cannot sync the project memories', error));
    }, DEBOUNCE_MS);
  }

  /** Starts, runs or stops the sync as the setting says; the pass's report when one ran. */
  private async apply(): Promise<SyncReport | null> {
    const folder = this.folder();
    const enabled = folder !== null && setting('repoMemories.enabled');
    const ready = this.host.peek() ?? (enabled ? await this.host.ready() : undefined);
    if (!ready) return null;
    if (!enabled || !folder || !ready.identity.workspaceProjectId) {
      if (this.shared) {
        await ready.core.stopSharingProjectMemories(this.shared);
        this.log.info(`Project memories are no longer shared in ${this.shared}/.memory/.`);
        this.shared = null;
      }
      this.diagnostics.clear();
      return null;
    }
    const agentsFile = setting('repoMemories.agentsFile');
    const report = await ready.core.shareProjectMemories({
      workspace_dir: folder.uri.fsPath,
      project_id: ready.identity.workspaceProjectId,
      ...(agentsFile ? { agents_file: { path: agentsFile } } : {}),
    });
    this.shared = folder.uri.fsPath;
    this.show(folder, report);
    return report;
  }

  private show(folder: vscode.WorkspaceFolder, report: SyncReport): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const problem of report.diagnostics) {
      const line = Math.max(0, problem.line - 1);
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
        `${problem.code}: ${problem.message}`,
        problem.code === 'SECRET_IN_FILE' || problem.code === 'CONFLICT_MARKERS'
          ? vscode.DiagnosticSeverity.Error
          : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.source = 'Firebolt Memory';
      const list = byFile.get(problem.path) ?? [];
      list.push(diagnostic);
      byFile.set(problem.path, list);
    }
    this.diagnostics.clear();
    for (const [path, list] of byFile) this.diagnostics.set(vscode.Uri.joinPath(folder.uri, path), list);
    for (const resolution of report.resolutions) {
      this.log.info(`Project memories: ${resolution.path}: ${resolution.kind} (${resolution.reason})`);
      if (RESOLVED_CONFLICT.test(resolution.reason))
        void vscode.window.showInformationMessage(
          `Project memory ${resolution.path}: both sides changed it; the newer version was kept (${resolution.reason.replaceAll('-', ' ')}).`,
        );
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
