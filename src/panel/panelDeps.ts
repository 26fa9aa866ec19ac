import type { CoreSurface } from '../daemon/coreSurface.ts';

/** What a panel host hands the controller: the core and who/where the user is right now. */
export interface PanelDeps {
  /** In this process (the CLI's panel) or in the background memory process (the editor's). */
  core: CoreSurface;
  userId: () => string;
  /** The editor's current working-memory session, when it has one. */
  sessionId: () => string | undefined;
  host: 'vscode' | 'browser';
  /** The editor's selected text; absent outside an editor. */
  selection?: () => string | undefined;
  log: (message: string) => void;
}
