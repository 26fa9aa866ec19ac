import type { MemoryCore } from '../core/memoryCore.ts';

/** What a panel host hands the controller: the core and who/where the user is right now. */
export interface PanelDeps {
  core: MemoryCore;
  userId: () => string;
  /** The editor's current working-memory session, when it has one. */
  sessionId: () => string | undefined;
  host: 'vscode' | 'browser';
  /** The editor's selected text; absent outside an editor. */
  selection?: () => string | undefined;
  log: (message: string) => void;
}
