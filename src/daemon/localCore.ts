import type { MemoryCore } from '../core/memoryCore.ts';
import type { CoreSurface } from './coreSurface.ts';

/** The surface of a core in this process (the daemon itself, the CLI's panel, tests): the core itself. */
export function localCoreSurface(core: MemoryCore): CoreSurface {
  return core;
}
