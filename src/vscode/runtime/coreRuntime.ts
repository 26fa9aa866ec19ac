import type { MemoryCore } from '../../core/memoryCore.ts';
import type { CoreSurface } from '../../core/coreSurface.ts';
import type { DaemonConnection } from '../../daemon/daemonConnection.ts';

/** Where this window's core runs, and how to let go of it. */
export type CoreRuntime =
  | {
      kind: 'daemon';
      core: CoreSurface;
      pid: number;
      connection: DaemonConnection;
      logFile: string;
      /** This window started the process (no other window had it running). */
      started: boolean;
    }
  | {
      kind: 'in-process';
      core: CoreSurface;
      /** The extraction with a Copilot model needs the editor's language-model API, so that core stays here. */
      local: MemoryCore;
    };

export async function releaseRuntime(runtime: CoreRuntime): Promise<void> {
  if (runtime.kind === 'daemon') runtime.connection.close();
  else await runtime.local.close();
}
