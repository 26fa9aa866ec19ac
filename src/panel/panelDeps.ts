import type { CoreSurface } from '../core/coreSurface.ts';
import type { EditorAction } from '../shared/panelProtocol.ts';

/** What a panel host hands the controller: the core and who/where the user is right now. */
export interface PanelDeps {
  /** In this process (the CLI's panel) or in the background memory process (the editor's). */
  core: CoreSurface;
  userId: () => string;
  /** A readable name for the user, when the id is generated; the id itself otherwise. */
  userLabel?: () => string;
  /** Where the user id comes from, as a person reads it (a setting, the data directory's id file). */
  userSource?: () => string;
  /** Which store the panel reads, as a person reads it (backend and place; never a secret). */
  storeDescription?: () => string;
  /** The editor's current working-memory session, when it has one. */
  sessionId: () => string | undefined;
  /** Whether the editor's session is new for this window or continued after a reload, and the limit for that. */
  sessionContinuity?: () => { continued: boolean; reloadLimitMs: number };
  host: 'vscode' | 'browser';
  /** The editor's selected text; absent outside an editor. */
  selection?: () => string | undefined;
  /** Runs Remember…, Import or Go to code in the editor; absent outside an editor. */
  runEditorAction?: (action: EditorAction, memoryId: string | undefined) => Promise<void>;
  log: (message: string) => void;
}
