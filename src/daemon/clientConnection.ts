import type { Socket } from 'node:net';
import type { CoreSurface } from '../core/coreSurface.ts';
import type { MemoryCore } from '../core/memoryCore.ts';

/** One client's connection (a window, the CLI) as the memory process holds it. */
export interface Connection {
  socket: Socket;
  /** Set once the client's hello carried the secret: until then only a small hello is read. */
  authenticated: boolean;
  /** Copies this client started, by request id, so a cancel frame can stop them. */
  copies: Map<number, AbortController>;
  dataDir: string | null;
  coreKey: string | null;
  surface: CoreSurface | null;
  core: MemoryCore | null;
  userId: string | undefined;
  unsubscribe: (() => void) | null;
}
