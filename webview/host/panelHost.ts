import type { HostMessage, RequestMessage } from '../../src/shared/panelProtocol.ts';

/**
 * The panel's only link to its host. The VS Code webview and the browser page differ only here:
 * postMessage versus HTTP + Server-Sent Events, and webview state versus sessionStorage.
 */
export interface PanelHost {
  post(message: RequestMessage): void;
  listen(listener: (message: HostMessage) => void): void;
  getState(): unknown;
  setState(state: unknown): void;
}
