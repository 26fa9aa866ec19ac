import { MemoryError } from '../core/domain/errors.ts';
import type { WorkingSessionInfo, WorkingView } from '../shared/panelProtocol.ts';
import type { PanelDeps } from './panelDeps.ts';

/**
 * The working-memory tab shows the editor's current session; without one (a browser outside
 * VS Code, or before the first agent call) it shows the user's most recently active session.
 */
export async function resolveSessionId(deps: PanelDeps): Promise<string | null> {
  const current = deps.sessionId();
  if (current) return current;
  const sessions = await deps.core.listSessions(deps.userId());
  if (sessions.length === 0) return null;
  return sessions.reduce((latest, session) => (session.last_activity > latest.last_activity ? session : latest))
    .session_id;
}

export async function workingView(deps: PanelDeps): Promise<WorkingView> {
  const sessionId = await resolveSessionId(deps);
  if (!sessionId) return { state: null, session: null };
  const [state, record] = await Promise.all([
    deps.core.workingState(sessionId, deps.userId()),
    deps.core.getSession(sessionId),
  ]);
  return { state, session: record ? sessionInfo(deps, sessionId, record) : null };
}

/** When the session started, and whether it is this window's own, continued after a reload, or the latest one. */
function sessionInfo(
  deps: PanelDeps,
  sessionId: string,
  record: { created_at: string; last_activity: string },
): WorkingSessionInfo {
  const editorSession = deps.sessionId() === sessionId;
  const continuity = editorSession ? deps.sessionContinuity?.() : undefined;
  return {
    started_at: record.created_at,
    last_activity: record.last_activity,
    origin: !editorSession ? 'latest' : continuity?.continued ? 'reload' : 'window',
    reload_limit_ms: continuity?.reloadLimitMs ?? null,
  };
}

export async function withSession<T>(
  deps: PanelDeps,
  action: (sessionId: string, userId: string) => Promise<T>,
): Promise<T> {
  const sessionId = await resolveSessionId(deps);
  if (!sessionId)
    throw new MemoryError(
      'SESSION_NOT_FOUND',
      'There is no working-memory session yet; it starts with the first agent call or editor capture.',
    );
  return action(sessionId, deps.userId());
}
