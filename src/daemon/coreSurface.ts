import type { LayerDefaults } from '../core/coreDeps.ts';
import type { MemoryCore } from '../core/memoryCore.ts';
import type { MemoryEventListener } from '../core/memoryEvents.ts';
import type { LongTermMemory } from '../core/longterm/longTermMemory.ts';
import type { MaintenanceOptions, MaintenanceReport } from '../core/lifecycle/maintenance.ts';
import type { MemoryStore } from '../core/ports/memoryStore.ts';
import type { MemoryExport } from '../core/portability/exportFormat.ts';
import type { ImportOutput } from '../core/portability/importMemories.ts';
import type { WorkingMemory } from '../core/working/workingMemory.ts';

export const WORKING_CALLS = ['state', 'initSession', 'clear', 'checkpoint', 'evict', 'add', 'setPinned', 'get'] as const;
export const LONG_TERM_CALLS = ['forget', 'store', 'update', 'restore', 'forgetAll', 'get'] as const;
export const STORE_CALLS = ['getMemories', 'listSessions', 'getSession', 'changeToken'] as const;
export const CORE_CALLS = ['recall', 'getRelevantContext', 'promoteMemory', 'listMemories', 'stats', 'recordOpened'] as const;
/** Whole-store jobs that run next to the store (export, import, maintenance), never in a window. */
export const JOB_CALLS = ['exportMemories', 'importMemories', 'runMaintenance'] as const;

/**
 * What the editor, the panel and the benchmarks use of the memory layer: the same methods with
 * the same types whether the core is in this process (MemoryCore) or behind the daemon's socket
 * (RemoteCore). Everything is a promise or a value fixed when the core opened.
 */
export interface CoreSurface {
  readonly defaultProjectId: string | null | undefined;
  readonly layerDefaults: LayerDefaults;
  readonly events: { on(listener: MemoryEventListener): { dispose(): void } };
  readonly working: Pick<WorkingMemory, (typeof WORKING_CALLS)[number]>;
  readonly longTerm: Pick<LongTermMemory, (typeof LONG_TERM_CALLS)[number]>;
  readonly store: Pick<MemoryStore, (typeof STORE_CALLS)[number] | 'kind'>;
  recall: MemoryCore['recall'];
  getRelevantContext: MemoryCore['getRelevantContext'];
  promoteMemory: MemoryCore['promoteMemory'];
  listMemories: MemoryCore['listMemories'];
  stats: MemoryCore['stats'];
  recordOpened: MemoryCore['recordOpened'];
  jobs: CoreJobs;
}

export interface CoreJobs {
  exportMemories(userId: string): Promise<MemoryExport>;
  importMemories(userId: string, data: unknown): Promise<ImportOutput>;
  runMaintenance(userId: string, options?: MaintenanceOptions): Promise<MaintenanceReport>;
}
