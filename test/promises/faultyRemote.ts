import { MemoryError } from '../../src/core/domain/errors.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';

/** What the wrapped remote does on the next calls of a write method. */
export type Fault = 'lose-acknowledgement' | 'reject';

/**
 * A remote store that misbehaves on chosen writes: 'lose-acknowledgement' applies the write and
 * then fails the way a connection dropped after the COMMIT was sent does (retryable, delivered);
 * 'reject' fails the way Firebolt refusing a statement does (not retryable, nothing applied).
 * Every call is counted, so a test can say how often the replayer tried.
 */
export function faultyRemote(remote: MemoryStore): {
  store: MemoryStore;
  faults: Map<string, Fault[]>;
  calls: Map<string, number>;
} {
  const faults = new Map<string, Fault[]>();
  const calls = new Map<string, number>();
  const store = new Proxy(remote, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = String(property);
      return async (...args: unknown[]) => {
        calls.set(method, (calls.get(method) ?? 0) + 1);
        const fault = faults.get(method)?.shift();
        if (fault === 'reject') {
          throw new MemoryError('PROVIDER_ERROR', `Firebolt ${method} failed: the engine refused the statement`, {
            details: { status: 400, delivered: true, retryable: false },
          });
        }
        const result = await (value as (...call: unknown[]) => unknown).apply(target, args);
        if (fault === 'lose-acknowledgement') {
          throw new MemoryError(
            'PROVIDER_ERROR',
            `Firebolt ${method} failed: socket hang up after the request was sent`,
            {
              details: { status: 0, delivered: true, retryable: true, transport_code: 'ECONNRESET' },
            },
          );
        }
        return result;
      };
    },
  });
  return { store, faults, calls };
}
