import type { HostMessage } from '../shared/panelProtocol.ts';
import type { Disposable } from './changeWatcher.ts';
import type { PanelController } from './panelController.ts';

/** The parts of a VS Code webview view the panel uses; the provider adapts vscode.WebviewView to it. */
export interface WebviewLike {
  readonly visible: boolean;
  postMessage(message: HostMessage): PromiseLike<boolean>;
  onDidReceiveMessage(listener: (message: unknown) => void): Disposable;
  onDidChangeVisibility(listener: () => void): Disposable;
  onDidDispose(listener: () => void): Disposable;
}

export interface WebviewConnection extends Disposable {
  /** Asks the panel to put the keyboard focus on its list ("Show Memory Panel"). */
  focusList(): void;
}

/**
 * Connects one webview to the controller: requests in, responses and notifications out. Change
 * notifications (and with them the store polling) run only while the view is visible, because a
 * hidden webview drops messages anyway; on becoming visible it is told to re-read everything.
 */
export function connectWebview(
  view: WebviewLike,
  controller: PanelController,
  log: (message: string) => void,
): WebviewConnection {
  const post = (message: HostMessage): void => {
    view
      .postMessage(message)
      .then(undefined, (error: unknown) =>
        log(`[panel] postMessage failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  };
  let watching: Disposable | null = null;
  const syncWatching = (): void => {
    if (view.visible && !watching) {
      watching = controller.watch((notification) => post({ kind: 'notification', notification }));
      // Changes made while hidden were never delivered; one refresh catches up.
      post({ kind: 'notification', notification: { type: 'store-changed' } });
    } else if (!view.visible && watching) {
      watching.dispose();
      watching = null;
    }
  };
  syncWatching();
  const subscriptions = [
    view.onDidReceiveMessage((message) => {
      void controller.handle(message).then(post);
    }),
    view.onDidChangeVisibility(syncWatching),
  ];
  const dispose = (): void => {
    watching?.dispose();
    watching = null;
    for (const subscription of subscriptions.splice(0)) subscription.dispose();
  };
  subscriptions.push(view.onDidDispose(dispose));
  // Sent even while hidden: VS Code holds a webview's messages until its page is ready, and the
  // focus command is what makes the view visible.
  return { dispose, focusList: () => post({ kind: 'notification', notification: { type: 'focus-list' } }) };
}
