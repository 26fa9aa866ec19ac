import type { CoreSurface } from '../core/coreSurface.ts';
import type { PanelNotification } from '../shared/panelProtocol.ts';

export interface Disposable {
  dispose(): void;
}

export const DEFAULT_POLL_MS = 2000;

/**
 * Tells an open panel that what it shows may be stale. Writes in this process arrive as core
 * events at once; writes by other processes (an MCP server the agent spawned, another window)
 * only move the store's change token, so the token is polled while someone is watching.
 */
export function watchChanges(
  core: CoreSurface,
  userId: () => string,
  notify: (notification: PanelNotification) => void,
  log: (message: string) => void,
  pollMs = DEFAULT_POLL_MS,
): Disposable {
  let localChange = false;
  let lastToken: string | null = null;
  let polling = false;
  const subscription = core.onEvent((event) => {
    switch (event.type) {
      case 'memory':
        if (event.user_id !== userId()) return;
        localChange = true;
        notify({ type: 'memories-changed', memory_ids: event.memory_ids, change: event.change });
        return;
      case 'working':
        if (event.user_id !== userId()) return;
        localChange = true;
        notify({ type: 'working-changed', session_id: event.session_id });
        return;
      case 'user-cleared':
        if (event.user_id !== userId()) return;
        localChange = true;
        notify({ type: 'store-changed' });
        return;
      case 'external':
        notify({ type: 'store-changed' });
        return;
      case 'recall':
        return;
    }
  });
  const poll = async (): Promise<void> => {
    if (polling) return;
    polling = true;
    try {
      const token = await core.changeToken();
      // In-process writes move the token too; they were announced already, so only rebase.
      if (lastToken !== null && token !== lastToken && !localChange) notify({ type: 'store-changed' });
      lastToken = token;
      localChange = false;
    } catch (error) {
      log(`[panel] change poll failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      polling = false;
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), pollMs);
  // The poll must never keep a CLI or test process alive on its own.
  timer.unref?.();
  return {
    dispose: () => {
      clearInterval(timer);
      subscription.dispose();
    },
  };
}
