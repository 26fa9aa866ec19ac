import * as vscode from 'vscode';
import type { Log } from './log.ts';
import { type MemoryPanel, registerMemoryPanel } from './panel/memoryPanelProvider.ts';
import { RELOAD_WINDOW_MS } from './runtime/identity.ts';
import type { MemoryHost } from './runtime/memoryHost.ts';
import { goToAnchoredCode } from './anchors/goToAnchoredCode.ts';

/**
 * The panel is built over one open core, and the core opens after activation and reopens when the
 * storage settings change: register the panel's provider for each open core, dispose it on close.
 */
export interface PanelRegistration extends vscode.Disposable {
  /** Keyboard focus on the panel's list, after the view was shown ("Show Memory Panel"). */
  focusList(): void;
}

export function registerPanelWithHost(context: vscode.ExtensionContext, host: MemoryHost, log: Log): PanelRegistration {
  let current: MemoryPanel | undefined;
  const subscription = host.onDidChange((ready) => {
    current?.dispose();
    current = undefined;
    if (!ready) return;
    try {
      current = registerMemoryPanel(context, {
        core: ready.core,
        userId: () => ready.identity.userId,
        userLabel: () => ready.identity.userLabel,
        userSource: () =>
          ready.identity.userSource.kind === 'setting'
            ? 'the fireboltMemory.user.id setting'
            : ready.identity.userSource.path,
        storeDescription: () => ready.storeDescription,
        runEditorAction: async (action, memoryId) => {
          if (action === 'remember') await vscode.commands.executeCommand('memory.remember');
          else if (action === 'import') await vscode.commands.executeCommand('memory.import');
          else await goToAnchoredCode(ready.core, ready.identity.userId, memoryId ?? '');
        },
        sessionId: () => ready.identity.sessionId,
        sessionContinuity: () => ({ continued: ready.identity.sessionContinued, reloadLimitMs: RELOAD_WINDOW_MS }),
        log: (message) => log.info(`[panel] ${message}`),
      });
    } catch (error) {
      log.error('Cannot show the memory panel', error);
    }
  });
  return {
    // Before the core is open there is no panel to focus; the panel then focuses its list itself when shown.
    focusList: () => current?.focusList(),
    dispose: () => {
      subscription.dispose();
      current?.dispose();
    },
  };
}
