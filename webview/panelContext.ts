import type { PanelInit } from '../src/shared/panelProtocol.ts';
import type { OwnChanges } from './ownChanges.ts';
import type { PanelClient } from './panelClient.ts';
import type { Toasts } from './ui/toast.ts';
import type { UiStore } from './uiState.ts';

/** What every view needs; built once in main.ts and passed down, no globals. */
export interface PanelContext {
  client: PanelClient;
  ui: UiStore;
  toasts: Toasts;
  init: PanelInit;
  /** Memory changes this panel made and re-reads itself: their notifications do not reload the list again. */
  ownChanges: OwnChanges;
}
