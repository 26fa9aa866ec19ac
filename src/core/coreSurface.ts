import type { LayerDefaults } from './coreDeps.ts';
import type { MemoryCore } from './memoryCore.ts';

/** The core API a window may call through the daemon; anything else is refused before it reaches the core. */
export const CORE_CALLS = [
  'recall',
  'getRelevantContext',
  'promoteMemory',
  'listMemories',
  'listProjectLayer',
  'stats',
  'recordOpened',
  'storeMemory',
  'updateMemory',
  'editSearchKeys',
  'getMemory',
  'getMemories',
  'forgetMemory',
  'restoreMemory',
  'restoreMemories',
  'forgetAllMemories',
  'listSessions',
  'getSession',
  'changeToken',
  'initSession',
  'addToWorkingMemory',
  'getWorkingMemory',
  'workingState',
  'checkpointWorkingMemory',
  'clearWorkingMemory',
  'pinWorkingItem',
  'evictFromWorkingMemory',
  // Project memories in the repository (issue #34): the sync runs next to the store, on the window's folder.
  'shareProjectMemories',
  'stopSharingProjectMemories',
  'exportAgentsSection',
  // Whole-store jobs run next to the store (in the daemon), never in a window.
  'exportMemories',
  'importMemories',
  'runMaintenance',
] as const satisfies ReadonlyArray<keyof MemoryCore>;

export type CoreCall = (typeof CORE_CALLS)[number];

/**
 * What the editor, the panel and the benchmarks use of the memory layer: the same methods with
 * the same types whether the core is in this process (MemoryCore) or behind the daemon's socket
 * (RemoteCore). Everything is a promise or a value fixed when the core opened.
 */
export interface CoreSurface extends Pick<MemoryCore, CoreCall | 'onEvent'> {
  readonly defaultProjectId: string | null | undefined;
  readonly layerDefaults: LayerDefaults;
  readonly backendKind: string;
}
