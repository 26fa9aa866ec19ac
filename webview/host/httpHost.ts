import type { HostMessage, RequestMessage, ResponseMessage } from '../../src/shared/panelProtocol.ts';
import type { PanelHost } from './panelHost.ts';

const STATE_KEY = 'fml.panel.state';

/**
 * The browser transport: requests are POSTed to /api/panel, notifications arrive over SSE. The
 * session cookie set when the page was opened authenticates both; the page never sees the token.
 */
export function createHttpHost(onConnection: (connected: boolean) => void): PanelHost {
  const listeners: Array<(message: HostMessage) => void> = [];
  const deliver = (message: HostMessage): void => {
    for (const listener of listeners) listener(message);
  };
  let lostConnection = false;
  const events = new EventSource('/api/panel/events');
  events.onmessage = (event: MessageEvent<string>) => deliver(JSON.parse(event.data) as HostMessage);
  events.onopen = () => {
    onConnection(true);
    // Changes made while the stream was down were missed; a full refresh catches up.
    if (lostConnection) deliver({ kind: 'notification', notification: { type: 'store-changed' } });
    lostConnection = false;
  };
  events.onerror = () => {
    lostConnection = true;
    onConnection(false);
  };
  return {
    post: (message: RequestMessage) => {
      void send(message).then(deliver);
    },
    listen: (listener) => listeners.push(listener),
    getState: () => {
      const saved = sessionStorage.getItem(STATE_KEY);
      return saved === null ? undefined : (JSON.parse(saved) as unknown);
    },
    setState: (state) => sessionStorage.setItem(STATE_KEY, JSON.stringify(state)),
  };
}

async function send(message: RequestMessage): Promise<ResponseMessage> {
  try {
    const response = await fetch('/api/panel', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(message),
      credentials: 'same-origin',
    });
    const payload = (await response.json()) as ResponseMessage | { error: { code: string; message: string } };
    if ('kind' in payload) return payload;
    return {
      kind: 'response',
      id: message.id,
      ok: false,
      error: { code: response.status === 401 ? 'UNAUTHORIZED' : 'TRANSPORT_ERROR', message: payload.error.message },
    };
  } catch (error) {
    return {
      kind: 'response',
      id: message.id,
      ok: false,
      error: {
        code: 'TRANSPORT_ERROR',
        message: `Cannot reach the memory server (${error instanceof Error ? error.message : String(error)}). Is "fml serve --http" still running?`,
      },
    };
  }
}
