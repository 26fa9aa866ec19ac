import { MemoryError } from '../core/domain/errors.ts';
import { CORE_CALLS, type CoreSurface, JOB_CALLS, LONG_TERM_CALLS, STORE_CALLS, WORKING_CALLS } from './coreSurface.ts';

/** Every method a client may call, by path; anything else is refused before it reaches the core. */
const ALLOWED: ReadonlySet<string> = new Set([
  ...CORE_CALLS,
  ...WORKING_CALLS.map((name) => `working.${name}`),
  ...LONG_TERM_CALLS.map((name) => `longTerm.${name}`),
  ...STORE_CALLS.map((name) => `store.${name}`),
  ...JOB_CALLS.map((name) => `jobs.${name}`),
]);

export function isAllowedCall(path: string): boolean {
  return ALLOWED.has(path);
}

/** Calls `path` ("working.add", "recall", …) on a surface with the decoded arguments. */
export async function dispatchCall(surface: CoreSurface, path: string, args: unknown[]): Promise<unknown> {
  if (!ALLOWED.has(path)) throw new MemoryError('INVALID_INPUT', `The memory process has no method "${path}".`);
  const dot = path.indexOf('.');
  const owner = (dot < 0 ? surface : surface[path.slice(0, dot) as 'working' | 'longTerm' | 'store' | 'jobs']) as unknown as Record<string, (...a: unknown[]) => unknown>;
  const name = dot < 0 ? path : path.slice(dot + 1);
  return await owner[name]!.call(owner, ...args);
}
