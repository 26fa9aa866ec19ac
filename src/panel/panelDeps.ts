import type { CoreSurface } from '../core/coreSurface.ts';

/** What a panel host hands the controller: the core and who/where the user is right now. */
export interface PanelDeps {
  /** In this process (the CLI's panel) or in the background memory process (the editor's). */
  core: CoreSurface;
  userId: () => string;
  /** A readable name for the user, when the id is generated; the id itself otherwise. */
  userLabel?: () => string;
  /** The editor's current working-memory session, when it has one. */
  sessionId: () => string | undefined;
  /** Whether the editor's session is new for this window or continued after a reload, and the limit for that. */
  sessionContinuity?: () => { continued: boolean; reloadLimitMs: number };
  host: 'vscode' | 'browser';
  /** The editor's selected text; absent outside an editor. */
  selection?: () => string | undefined;
  log: (message: string) => void;
}
