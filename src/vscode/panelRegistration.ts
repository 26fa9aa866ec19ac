import * as vscode from 'vscode';
import type { Log } from './log.ts';
import { registerMemoryPanel } from './panel/memoryPanelProvider.ts';
import { RELOAD_WINDOW_MS } from './runtime/identity.ts';
import type { MemoryHost } from './runtime/memoryHost.ts';

/**
 * The panel is built over one open core, and the core opens after activation and reopens when the
 * storage settings change: register the panel's provider for each open core, dispose it on close.
 */
export function registerPanelWithHost(context: vscode.ExtensionContext, host: MemoryHost, log: Log): vscode.Disposable {
  let current: vscode.Disposable | undefined;
  const subscription = host.onDidChange((ready) => {
    current?.dispose();
    current = undefined;
    if (!ready) return;
    try {
      current = registerMemoryPanel(context, {
        core: ready.core,
        userId: () => ready.identity.userId,
        userLabel: () => ready.identity.userLabel,
        sessionId: () => ready.identity.sessionId,
        sessionContinuity: () => ({ continued: ready.identity.sessionContinued, reloadLimitMs: RELOAD_WINDOW_MS }),
        log: (message) => log.info(`[panel] ${message}`),
      });
    } catch (error) {
      log.error('Cannot show the memory panel', error);
    }
  });
  return new vscode.Disposable(() => {
    subscription.dispose();
    current?.dispose();
  });
}
