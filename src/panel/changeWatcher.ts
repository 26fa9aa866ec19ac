import type { CoreSurface } from '../core/coreSurface.ts';
import type { PanelNotification } from '../shared/panelProtocol.ts';

export interface Disposable {
  dispose(): void;
}

export const DEFAULT_POLL_MS = 2000;
/** How long after a token move a local event still counts as its cause. */
export const LOCAL_EVENT_GRACE_MS = 250;

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
  /** Writes this process announced so far (any user): the token moves for them too. */
  let localEvents = 0;
  /** localEvents when the read of lastToken started. */
  let localEventsAtLastRead = 0;
  let lastToken: string | null = null;
  let polling = false;
  const pending = new Set<ReturnType<typeof setTimeout>>();
  const subscription = core.onEvent((event) => {
    if (event.type !== 'recall' && event.type !== 'external') localEvents++;
    switch (event.type) {
      case 'memory':
        if (event.user_id !== userId()) return;
        notify({ type: 'memories-changed', memory_ids: event.memory_ids, change: event.change });
        return;
      case 'working':
        if (event.user_id !== userId()) return;
        notify({ type: 'working-changed', session_id: event.session_id });
        return;
      case 'user-cleared':
        if (event.user_id !== userId()) return;
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
      const eventsBefore = localEvents;
      const token = await core.changeToken();
      // In-process writes move the token too and were announced already: a move with a local event
      // since the previous read began is theirs. A write that committed just before this read may
      // announce itself just after it, so a move is reported only if no local event follows within
      // the grace either; otherwise the panel would read its list once for the event and once
      // more for this.
      if (lastToken !== null && token !== lastToken && localEvents === localEventsAtLastRead) {
        const seen = localEvents;
        const waiting = setTimeout(() => {
          pending.delete(waiting);
          if (localEvents === seen) notify({ type: 'store-changed' });
        }, LOCAL_EVENT_GRACE_MS);
        waiting.unref?.();
        pending.add(waiting);
      }
      lastToken = token;
      localEventsAtLastRead = eventsBefore;
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
      for (const waiting of pending) clearTimeout(waiting);
      pending.clear();
      subscription.dispose();
    },
  };
}
