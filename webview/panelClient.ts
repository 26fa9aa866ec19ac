import type {
  HostMessage,
  PanelErrorCode,
  PanelMethod,
  PanelNotification,
  ParamsOf,
  ResultOf,
} from '../src/shared/panelProtocol.ts';
import type { PanelHost } from './host/panelHost.ts';

/** A failed request, with the host's error code so views can branch on it, never on text. */
export class PanelRequestError extends Error {
  readonly code: PanelErrorCode;

  constructor(code: PanelErrorCode, message: string) {
    super(message);
    this.name = 'PanelRequestError';
    this.code = code;
  }
}

/** Typed request/response over whichever host the panel runs in. */
export class PanelClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly notificationListeners: Array<(notification: PanelNotification) => void> = [];
  private readonly host: PanelHost;

  constructor(host: PanelHost) {
    this.host = host;
    host.listen((message) => this.receive(message));
  }

  request<M extends PanelMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.host.post({ kind: 'request', id, method, params });
    });
  }

  onNotification(listener: (notification: PanelNotification) => void): void {
    this.notificationListeners.push(listener);
  }

  private receive(message: HostMessage): void {
    if (message.kind === 'notification') {
      for (const listener of this.notificationListeners) listener(message.notification);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(new PanelRequestError(message.error.code, message.error.message));
  }
}

export function describeError(error: unknown): string {
  // Another window, an agent or a background job changed the memory after this copy was shown.
  if (error instanceof PanelRequestError && error.code === 'CONFLICT')
    return 'Changed elsewhere — reload to see the newer version; your edit was not saved.';
  if (error instanceof PanelRequestError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
