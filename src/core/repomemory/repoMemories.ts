import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import { AnchorChecker } from '../anchors/anchorChecker.ts';
import type { InstructionFile, RepoWorkspace } from '../ports/repoMemoryFiles.ts';
import { requireId } from '../validation.ts';
import { type AgentsFileResult, updateAgentsFile } from './agentsFile.ts';
import { DEFAULT_SECTION_BUDGET } from './agentsSection.ts';
import { RepoMemorySync, type RepoSyncReport } from './repoMemorySync.ts';

/** Opens a workspace on this machine, its `.memory/` folder and its code (the composition root's adapter). */
export type RepoFilesFactory = (workspaceDir: string) => RepoWorkspace;

export interface ShareProjectMemoriesInput {
  workspace_dir: string;
  project_id: string;
  /** Keep this instructions file's marked section in step with the pinned project memories too. */
  agents_file?: { path: InstructionFile; budget?: number };
}

export interface ExportAgentsSectionInput {
  workspace_dir: string;
  project_id: string;
  path: InstructionFile;
  budget?: number;
}

/**
 * The folders whose project memories this process shares (issue #34), one sync each, by workspace
 * folder: the CLI's --repo-memories and every editor window that turned the setting on, which may
 * ask again (a reload) without starting a second sync.
 */
export class RepoMemories {
  private readonly deps: CoreDeps;
  private readonly factory: RepoFilesFactory | null;
  private readonly syncs = new Map<string, { projectId: string; sync: RepoMemorySync }>();

  constructor(deps: CoreDeps, factory: RepoFilesFactory | null) {
    this.deps = deps;
    this.factory = factory;
  }

  /** Starts sharing (a first full pass), or, when already shared, a full pass now; the pass's report. */
  async share(input: ShareProjectMemoriesInput): Promise<RepoSyncReport> {
    const projectId = requireId(input.project_id, 'project_id');
    const running = this.syncs.get(input.workspace_dir);
    if (running && running.projectId === projectId) return running.sync.sync();
    if (running) await this.stop(input.workspace_dir);
    const workspace = this.workspace(input.workspace_dir);
    const sync = new RepoMemorySync(this.deps, workspace.memoryFiles, {
      projectId,
      // Anchors of the files are resolved in the folder shared, in the editor's memory process as in
      // fml serve --workspace (whose own checker serves another purpose: recall's freshness checks).
      anchors: new AnchorChecker(workspace.codeFiles),
      ...(input.agents_file
        ? { agentsFile: { path: input.agents_file.path, budget: input.agents_file.budget ?? DEFAULT_SECTION_BUDGET } }
        : {}),
    });
    this.syncs.set(input.workspace_dir, { projectId, sync });
    try {
      return await sync.start();
    } catch (error) {
      this.syncs.delete(input.workspace_dir);
      await sync.close();
      throw error;
    }
  }

  /** Stops sharing the folder's memories; its files and memories stay as they are. */
  async stop(workspaceDir: string): Promise<boolean> {
    const running = this.syncs.get(workspaceDir);
    if (!running) return false;
    this.syncs.delete(workspaceDir);
    await running.sync.close();
    return true;
  }

  /** The last pass's report of a shared folder; null when it is not shared here. */
  report(workspaceDir: string): RepoSyncReport | null {
    return this.syncs.get(workspaceDir)?.sync.lastReport ?? null;
  }

  exportAgentsSection(input: ExportAgentsSectionInput): Promise<AgentsFileResult> {
    return updateAgentsFile(
      this.deps,
      this.workspace(input.workspace_dir).memoryFiles,
      requireId(input.project_id, 'project_id'),
      {
        path: input.path,
        budget: input.budget ?? DEFAULT_SECTION_BUDGET,
      },
    );
  }

  async close(): Promise<void> {
    for (const workspaceDir of [...this.syncs.keys()]) await this.stop(workspaceDir);
  }

  private workspace(workspaceDir: string): RepoWorkspace {
    if (!this.factory)
      throw new MemoryError(
        'CONFIGURATION_ERROR',
        'This process cannot reach a repository folder: project memories are shared by fml serve or the editor.',
      );
    return this.factory(workspaceDir);
  }
}
