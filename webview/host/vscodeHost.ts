import type { HostMessage, RequestMessage } from '../../src/shared/panelProtocol.ts';
import type { PanelHost } from './panelHost.ts';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Injected by VS Code into webviews; callable once per page.
  function acquireVsCodeApi(): VsCodeApi;
}

export function isVsCodeWebview(): boolean {
  return typeof (globalThis as { acquireVsCodeApi?: unknown }).acquireVsCodeApi === 'function';
}

export function createVsCodeHost(): PanelHost {
  const api = acquireVsCodeApi();
  return {
    post: (message: RequestMessage) => api.postMessage(message),
    listen: (listener) =>
      window.addEventListener('message', (event: MessageEvent<HostMessage>) => listener(event.data)),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
