import { execFile } from 'node:child_process';
import { projectIdFromFolder, projectIdFromGitRemote } from '../core/editor/projectIdentity.ts';
import type { MemoryCore } from '../core/memoryCore.ts';
import type { Logger } from '../core/ports/logger.ts';
import type { RepoMemorySync, RepoSyncReport } from '../core/repomemory/repoMemorySync.ts';
import type { AgentsFileResult, AgentsFileTarget } from '../core/repomemory/agentsFile.ts';
import { INSTRUCTION_FILES, type InstructionFile } from '../core/ports/repoMemoryFiles.ts';
import { MemoryError } from '../core/domain/errors.ts';
import { DEFAULT_SECTION_BUDGET } from '../core/repomemory/agentsSection.ts';
import { nodeRepoMemoryFiles } from './nodeRepoMemoryFiles.ts';

/**
 * Project memories shared through the workspace's `.memory/` folder (fml serve --repo-memories,
 * the editor's "Share Project Memories in This Repository"): the Node folder adapter wired to the
 * core's sync, every pass reported in the log.
 */
export async function startRepoMemories(
  core: MemoryCore,
  options: { workspaceDir: string; projectId: string; logger: Logger; agentsFile?: AgentsFileTarget },
): Promise<RepoMemorySync> {
  const files = nodeRepoMemoryFiles(options.workspaceDir, { logger: options.logger });
  const sync = await core.shareProjectMemories(files, {
    projectId: options.projectId,
    ...(options.agentsFile ? { agentsFile: options.agentsFile } : {}),
  });
  const log = (report: RepoSyncReport): void => {
    for (const line of reportLines(report)) options.logger.info(line);
  };
  if (sync.lastReport) log(sync.lastReport);
  sync.onReport(log);
  return sync;
}

/** `fml export --agents-md` and the editor's command: the section written once. */
export function exportAgentsMd(
  core: MemoryCore,
  options: { workspaceDir: string; projectId: string; logger: Logger; target: AgentsFileTarget },
): Promise<AgentsFileResult> {
  const files = nodeRepoMemoryFiles(options.workspaceDir, { logger: options.logger });
  return core.exportAgentsSection(files, options.projectId, options.target);
}

/** Where --agents-md writes and within how many tokens (--file, --budget); INVALID_INPUT for anything else. */
export function agentsTargetOf(values: { file?: string; budget?: string }): AgentsFileTarget {
  const budget = values.budget === undefined ? DEFAULT_SECTION_BUDGET : Number(values.budget);
  if (!Number.isInteger(budget) || budget < 1)
    throw new MemoryError(
      'INVALID_INPUT',
      `--budget must be a whole number of tokens, at least 1; got "${values.budget}".`,
      {
        details: { field: 'budget' },
      },
    );
  return { path: requireInstructionFile(values.file ?? 'AGENTS.md'), budget };
}

function requireInstructionFile(value: string): InstructionFile {
  const file = INSTRUCTION_FILES.find((name) => name === value);
  if (!file)
    throw new MemoryError(
      'INVALID_INPUT',
      `--file ${value}: the section is written to ${INSTRUCTION_FILES.join(', ')}.`,
      {
        details: { field: 'file' },
      },
    );
  return file;
}

/** One line per change and per problem: "project memories: .memory/x.md:3: INVALID_FIELD …". */
export function reportLines(report: RepoSyncReport): string[] {
  return [
    ...report.resolutions.map(
      (resolution) =>
        `project memories: ${resolution.path}: ${resolution.kind} ${resolution.memory_id} (${resolution.reason})`,
    ),
    ...report.diagnostics.map(
      (diagnostic) =>
        `project memories: ${diagnostic.path}:${diagnostic.line}: ${diagnostic.code} ${diagnostic.message}`,
    ),
  ];
}

/**
 * The project id the editor gives this folder (its git remote normalised, else a hash of the path),
 * so a server started on the same folder shares the editor's project layer.
 */
export function workspaceProjectId(workspaceDir: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', workspaceDir, 'config', '--get', 'remote.origin.url'],
      { timeout: 5000 },
      (error, stdout) => {
        // No remote (or no git): the folder's own id, as the editor falls back to.
        const remote = error ? null : projectIdFromGitRemote(stdout);
        resolve(remote ?? projectIdFromFolder(workspaceDir));
      },
    );
  });
}
