import { MemoryError } from '../core/domain/errors.ts';
import { CORE_CALLS, type CoreSurface } from '../core/coreSurface.ts';

const ALLOWED: ReadonlySet<string> = new Set(CORE_CALLS);

export function isAllowedCall(path: string): boolean {
  return ALLOWED.has(path);
}

/** Calls the core method named `path` ("addToWorkingMemory", "recall", …) with the decoded arguments. */
export async function dispatchCall(surface: CoreSurface, path: string, args: unknown[]): Promise<unknown> {
  if (!ALLOWED.has(path)) throw new MemoryError('INVALID_INPUT', `The memory process has no method "${path}".`);
  const method = surface[path as keyof CoreSurface] as unknown as (...a: unknown[]) => unknown;
  return await method.call(surface, ...args);
}
