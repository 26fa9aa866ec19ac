import type { LayerDefaults } from '../core/domain/layers.ts';
import type { MemoryEventListener } from '../core/memoryEvents.ts';
import { CORE_CALLS, type CoreCall, type CoreSurface } from '../core/coreSurface.ts';
import type { DaemonConnection } from './daemonConnection.ts';
import type { HelloAnswer } from './daemonProtocol.ts';

/**
 * The core as a window sees it when it lives in the daemon: each method is one round trip over
 * the local socket; events arrive as the daemon pushes them.
 */
type RemoteMethods = Pick<CoreSurface, CoreCall>;

export interface RemoteCore extends RemoteMethods {}

export class RemoteCore implements CoreSurface {
  readonly defaultProjectId: string | null | undefined;
  readonly layerDefaults: LayerDefaults;
  readonly backendKind: string;
  readonly connection: DaemonConnection;
  readonly opened: HelloAnswer;

  constructor(connection: DaemonConnection, opened: HelloAnswer) {
    this.connection = connection;
    this.opened = opened;
    this.defaultProjectId = opened.defaultProjectId;
    this.layerDefaults = opened.layerDefaults;
    this.backendKind = opened.storeKind;
    // One method per core call, each a round trip; declared by the interface merge above.
    for (const name of CORE_CALLS) {
      (this as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => connection.call(name, args);
    }
  }

  onEvent(listener: MemoryEventListener): { dispose(): void } {
    return this.connection.onEvent(listener);
  }
}
