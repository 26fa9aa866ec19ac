import type { LayerDefaults } from '../core/coreDeps.ts';
import type { MemoryEventListener } from '../core/memoryEvents.ts';
import type { CoreJobs, CoreSurface } from './coreSurface.ts';
import type { DaemonConnection } from './daemonConnection.ts';
import type { HelloAnswer } from './daemonProtocol.ts';

/**
 * The core as a window sees it when it lives in the daemon: each method is one round trip over
 * the local socket; events arrive as the daemon pushes them.
 */
export class RemoteCore implements CoreSurface {
  readonly defaultProjectId: string | null | undefined;
  readonly layerDefaults: LayerDefaults;
  readonly events: CoreSurface['events'];
  readonly working: CoreSurface['working'];
  readonly longTerm: CoreSurface['longTerm'];
  readonly store: CoreSurface['store'];
  readonly jobs: CoreJobs;
  readonly recall: CoreSurface['recall'];
  readonly getRelevantContext: CoreSurface['getRelevantContext'];
  readonly promoteMemory: CoreSurface['promoteMemory'];
  readonly recordOpened: CoreSurface['recordOpened'];
  readonly listMemories: CoreSurface['listMemories'];
  readonly stats: CoreSurface['stats'];

  readonly connection: DaemonConnection;
  readonly opened: HelloAnswer;

  constructor(connection: DaemonConnection, opened: HelloAnswer) {
    this.connection = connection;
    this.opened = opened;
    const call = <T>(path: string) => ((...args: unknown[]) => connection.call(path, args)) as unknown as T;
    this.defaultProjectId = opened.defaultProjectId;
    this.layerDefaults = opened.layerDefaults;
    this.events = { on: (listener: MemoryEventListener) => connection.onEvent(listener) };
    this.working = {
      state: call('working.state'),
      initSession: call('working.initSession'),
      clear: call('working.clear'),
      checkpoint: call('working.checkpoint'),
      evict: call('working.evict'),
      add: call('working.add'),
      setPinned: call('working.setPinned'),
      get: call('working.get'),
    };
    this.longTerm = {
      forget: call('longTerm.forget'),
      store: call('longTerm.store'),
      update: call('longTerm.update'),
      restore: call('longTerm.restore'),
      forgetAll: call('longTerm.forgetAll'),
      get: call('longTerm.get'),
    };
    this.store = {
      kind: opened.storeKind,
      getMemories: call('store.getMemories'),
      listSessions: call('store.listSessions'),
      getSession: call('store.getSession'),
      changeToken: call('store.changeToken'),
    };
    this.jobs = {
      exportMemories: call('jobs.exportMemories'),
      importMemories: call('jobs.importMemories'),
      runMaintenance: call('jobs.runMaintenance'),
    };
    this.recall = call('recall');
    this.getRelevantContext = call('getRelevantContext');
    this.promoteMemory = call('promoteMemory');
    this.recordOpened = call('recordOpened');
    this.listMemories = call('listMemories');
    this.stats = call('stats');
  }
}
