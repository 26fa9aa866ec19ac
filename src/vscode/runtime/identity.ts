import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { remoteUrlFromGitConfig } from '../../core/editor/gitConfig.ts';
import { projectIdFromFolder, projectIdFromGitRemote } from '../../core/editor/projectIdentity.ts';
import { loadOrCreateUserId, USER_ID_FILE } from '../../runtime/userIdFile.ts';
import { setting } from '../config/vscodeSettings.ts';

/** Who is working (user), on what (project scope, or none with scope "all") and in which window (session). */
export interface Identity {
  userId: string;
  /** What the panel shows for the user: the configured id, or the OS account name when the id is generated. */
  userLabel: string;
  /** Where the id comes from: the setting, or the data directory's `user-id` file (its path). */
  userSource: { kind: 'setting' } | { kind: 'file'; path: string };
  /** Project id of the workspace, whatever the scope setting; null without a folder. */
  workspaceProjectId: string | null;
  /** The scope memories are stored and recalled in: the workspace project, or undefined for "all". */
  scopeProjectId: string | undefined;
  sessionId: string;
  /** True when this window was reloaded and continues the session it had before. */
  sessionContinued: boolean;
}

const GENERATED_USER_KEY = 'memory.generatedUserId';
const RELOADED_SESSION_KEY = 'memory.sessionBeforeReload';
/**
 * A window that comes back this soon after it went away is the same window reloaded: it keeps its
 * session. Longer and a window reopened after a break would silently carry an old task's context
 * (failed commands, errors since fixed) into new work; two minutes covers a reload, an extension
 * update or a crash-and-restore. Documented in docs/extension.md ("Sessions and reloads").
 */
export const RELOAD_WINDOW_MS = 2 * 60_000;

interface SessionBeforeReload {
  sessionId: string;
  projectId: string | null;
  at: number;
}

export async function resolveIdentity(context: vscode.ExtensionContext, dataDir: string): Promise<Identity> {
  const { userId, userLabel, userSource } = await resolveUser(context, dataDir);
  const folder = vscode.workspace.workspaceFolders?.[0];
  const workspaceProjectId = folder && folder.uri.scheme === 'file' ? await projectIdOf(folder.uri.fsPath) : null;
  const scopeProjectId = setting('scope') === 'project' && workspaceProjectId ? workspaceProjectId : undefined;
  // One session per window: env.sessionId is new each time the window starts, so a reload would
  // start a new session; the one the window had before a reload is kept instead.
  const kept = context.workspaceState.get<SessionBeforeReload>(RELOADED_SESSION_KEY);
  const reloaded =
    kept !== undefined && kept.projectId === workspaceProjectId && Date.now() - kept.at < RELOAD_WINDOW_MS;
  const sessionId = reloaded
    ? kept.sessionId
    : `win_${createHash('sha256')
        .update(`${vscode.env.sessionId}|${workspaceProjectId ?? ''}`)
        .digest('hex')
        .slice(0, 24)}`;
  if (kept !== undefined) await context.workspaceState.update(RELOADED_SESSION_KEY, undefined);
  return { userId, userLabel, userSource, workspaceProjectId, scopeProjectId, sessionId, sessionContinued: reloaded };
}

/** Called as the window goes away: if it comes back within RELOAD_WINDOW_MS, it continues this session. */
export async function rememberSessionForReload(context: vscode.ExtensionContext, identity: Identity): Promise<void> {
  const value: SessionBeforeReload = {
    sessionId: identity.sessionId,
    projectId: identity.workspaceProjectId,
    at: Date.now(),
  };
  await context.workspaceState.update(RELOADED_SESSION_KEY, value);
}

async function resolveUser(
  context: vscode.ExtensionContext,
  dataDir: string,
): Promise<Pick<Identity, 'userId' | 'userLabel' | 'userSource'>> {
  const configured = setting('user.id').trim();
  if (configured !== '') return { userId: configured, userLabel: configured, userSource: { kind: 'setting' } };
  // The id belongs to the data, not to the browser or profile that opened it (userIdFile.ts). An id
  // an earlier version generated into globalState moves into the file on first run: same memories.
  const earlier = context.globalState.get<string>(GENERATED_USER_KEY);
  const generated = await loadOrCreateUserId(dataDir, earlier);
  // Still mirrored into globalState for Settings Sync: another machine's first run adopts it.
  if (earlier !== generated) await context.globalState.update(GENERATED_USER_KEY, generated);
  context.globalState.setKeysForSync([GENERATED_USER_KEY]);
  return {
    userId: generated,
    userLabel: accountName() ?? generated,
    userSource: { kind: 'file', path: join(dataDir, USER_ID_FILE) },
  };
}

/** The OS account the editor runs as (the same name `fml` uses); null where it has none (some containers). */
function accountName(): string | null {
  try {
    const name = userInfo().username.trim();
    return name === '' ? null : name;
  } catch (error) {
    // userInfo() throws when the uid has no passwd entry; the generated id is shown instead.
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ERR_SYSTEM_ERROR'
    )
      return null;
    throw error;
  }
}

async function projectIdOf(folderPath: string): Promise<string> {
  const remote = await gitRemoteOf(folderPath);
  return (remote ? projectIdFromGitRemote(remote) : null) ?? projectIdFromFolder(folderPath);
}

/** Reads `.git/config`, following a `.git` file (worktrees, submodules) to the common git dir. */
async function gitRemoteOf(folderPath: string): Promise<string | null> {
  let gitDir = join(folderPath, '.git');
  const pointer = await readOptional(gitDir);
  if (pointer !== null && pointer.startsWith('gitdir:')) {
    const target = pointer.slice('gitdir:'.length).trim();
    gitDir = isAbsolute(target) ? target : join(folderPath, target);
    const common = await readOptional(join(gitDir, 'commondir'));
    if (common !== null) gitDir = isAbsolute(common.trim()) ? common.trim() : join(gitDir, common.trim());
  }
  const config = await readOptional(join(gitDir, 'config'));
  if (config === null) return null;
  return remoteUrlFromGitConfig(config);
}

/** A missing file or a directory reads as null: "no git here" is an expected answer, not an error. */
async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw error;
  }
}
