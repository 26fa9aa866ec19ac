import { containsSecret } from '../safety/secretDetector.ts';

/**
 * The text of each editor-context working-memory item. Written for the agent that reads it: short,
 * factual, with paths relative to the workspace. Each function returns null when there is nothing
 * worth saying, which removes the item.
 */

export interface ActiveEditorSnapshot {
  path: string;
  languageId: string;
  lineCount: number;
  /** 1-based cursor line. */
  cursorLine: number;
  selection?: { startLine: number; endLine: number; text: string };
}

export interface DiagnosticEntry {
  path: string;
  line: number;
  severity: 'error' | 'warning';
  message: string;
  source?: string;
  code?: string;
}

export interface FailedCommand {
  commandLine: string;
  exitCode: number;
  cwd?: string;
}

export interface FailedTask {
  name: string;
  exitCode: number;
  source?: string;
}

const MAX_SELECTION_CHARS = 2_000;
const MAX_DIAGNOSTICS = 20;
const MAX_COMMANDS = 5;

export function describeActiveEditor(snapshot: ActiveEditorSnapshot | null): string | null {
  if (!snapshot) return null;
  const lines = [
    `Active file: ${snapshot.path} (${snapshot.languageId}, ${snapshot.lineCount} lines), cursor at line ${snapshot.cursorLine}.`,
  ];
  const selection = snapshot.selection;
  // A selection holding a secret is left out rather than redacted: the rest of the item is still useful.
  if (selection && selection.text.trim() !== '' && !containsSecret(selection.text)) {
    const text =
      selection.text.length > MAX_SELECTION_CHARS
        ? `${selection.text.slice(0, MAX_SELECTION_CHARS)}\n… (truncated)`
        : selection.text;
    lines.push(`Selected lines ${selection.startLine}-${selection.endLine}:\n${text}`);
  }
  return lines.join('\n');
}

export function describeVisibleEditors(paths: readonly string[]): string | null {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return null;
  return `Open editors: ${unique.join(', ')}.`;
}

export function describeDiagnostics(entries: readonly DiagnosticEntry[]): string | null {
  const safe = entries.filter((entry) => !containsSecret(entry.message));
  if (safe.length === 0) return null;
  const sorted = [...safe].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path) || a.line - b.line);
  const errors = safe.filter((entry) => entry.severity === 'error').length;
  const lines = [`Problems: ${errors} error(s), ${safe.length - errors} warning(s).`];
  for (const entry of sorted.slice(0, MAX_DIAGNOSTICS)) {
    const label = [entry.source, entry.code].filter(Boolean).join(' ');
    lines.push(
      `- ${entry.severity} ${entry.path}:${entry.line}${label ? ` [${label}]` : ''}: ${entry.message.replace(/\s+/g, ' ').slice(0, 300)}`,
    );
  }
  if (sorted.length > MAX_DIAGNOSTICS) lines.push(`… and ${sorted.length - MAX_DIAGNOSTICS} more.`);
  return lines.join('\n');
}

/** Most recent first; commands with secrets on the command line are dropped. */
export function describeFailedCommands(commands: readonly FailedCommand[]): string | null {
  const safe = commands
    .filter((command) => !containsSecret(command.commandLine))
    .slice(-MAX_COMMANDS)
    .reverse();
  if (safe.length === 0) return null;
  const lines = ['Recent failed terminal commands:'];
  for (const command of safe) {
    lines.push(
      `- \`${command.commandLine.trim().slice(0, 300)}\` exited with code ${command.exitCode}${command.cwd ? ` in ${command.cwd}` : ''}`,
    );
  }
  return lines.join('\n');
}

export function describeFailedTask(task: FailedTask | null): string | null {
  if (!task) return null;
  return `Last failed task: "${task.name}"${task.source ? ` (${task.source})` : ''} exited with code ${task.exitCode}.`;
}

export function describeGitBranch(branch: string | null, repository: string | null): string | null {
  if (!branch) return null;
  return `Git branch: ${branch}${repository ? ` in ${repository}` : ''}.`;
}

function rank(entry: DiagnosticEntry): number {
  return entry.severity === 'error' ? 0 : 1;
}
