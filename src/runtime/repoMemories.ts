import { MemoryError } from '../core/domain/errors.ts';
import { projectIdFromFolder, projectIdFromGitRemote } from '../core/editor/projectIdentity.ts';
import { INSTRUCTION_FILES, type InstructionFile } from '../core/ports/repoMemoryFiles.ts';
import { DEFAULT_SECTION_BUDGET } from '../core/repomemory/agentsSection.ts';

/**
 * The project id the editor gives this folder (its git remote normalised, else a hash of the path),
 * so a server started on the same folder shares the editor's project layer.
 */
export function workspaceProjectId(workspaceDir: string): Promise<string> {
  // node:child_process at the first git call, not at every fml start (it brings dgram and net in: ~10 ms of CPU).
  const { execFile } = process.getBuiltinModule('node:child_process');
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

/** Where --agents-md writes and within how many tokens (--file, --budget); INVALID_INPUT for anything else. */
export function agentsTargetOf(values: { file?: string; budget?: string }): { path: InstructionFile; budget: number } {
  const budget = values.budget === undefined ? DEFAULT_SECTION_BUDGET : Number(values.budget);
  if (!Number.isInteger(budget) || budget < 1)
    throw new MemoryError(
      'INVALID_INPUT',
      `--budget must be a whole number of tokens, at least 1; got "${values.budget}".`,
      { details: { field: 'budget' } },
    );
  const file = INSTRUCTION_FILES.find((name) => name === (values.file ?? 'AGENTS.md'));
  if (!file)
    throw new MemoryError(
      'INVALID_INPUT',
      `--file ${values.file}: the section is written to ${INSTRUCTION_FILES.join(', ')}.`,
      { details: { field: 'file' } },
    );
  return { path: file, budget };
}
