import { runDailyMaintenance } from '../core/lifecycle/maintenance.ts';
import type { MemoryCore } from '../core/memoryCore.ts';
import { exportMemories } from '../core/portability/exportMemories.ts';
import { importMemories } from '../core/portability/importMemories.ts';
import type { CoreSurface } from './coreSurface.ts';

/** The surface of a core in this process (the daemon itself, the CLI's panel, tests). */
export function localCoreSurface(core: MemoryCore): CoreSurface {
  return {
    defaultProjectId: core.defaultProjectId,
    layerDefaults: core.coreDeps.config.layerDefaults,
    events: core.events,
    working: core.working,
    longTerm: core.longTerm,
    store: core.store,
    recall: (...args) => core.recall(...args),
    getRelevantContext: (...args) => core.getRelevantContext(...args),
    promoteMemory: (...args) => core.promoteMemory(...args),
    recordOpened: (...args) => core.recordOpened(...args),
    listMemories: (...args) => core.listMemories(...args),
    stats: (...args) => core.stats(...args),
    jobs: {
      exportMemories: (userId) => exportMemories(core.coreDeps, userId),
      importMemories: (userId, data) => importMemories(core.coreDeps, userId, data),
      runMaintenance: (userId, options) => runDailyMaintenance(core.coreDeps, userId, options),
    },
  };
}
