import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';

/** A port call a test runs `hook` after (with the ids it was asked about), before the caller sees the answer. */
export type AfterCallHooks = Partial<
  Record<'adjacentMemories' | 'turnFacts' | 'rankingFacts', (ids: readonly string[]) => Promise<void>>
>;

/**
 * `store` seen through a proxy that records the id of every full row read (getMemories) and runs
 * the hooks after the named calls return: how recall tests count rows and race a forget against
 * a recall at a precise step. Every one of those calls takes (user or scope, ids, ...).
 */
export function rowWatchingStore(
  store: MemoryStore,
  hooks: AfterCallHooks = {},
): { store: MemoryStore; rowsRead: string[] } {
  const rowsRead: string[] = [];
  const watched = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === 'getMemories')
        return (userId: string, ids: readonly string[]) => {
          rowsRead.push(...ids);
          return method(userId, ids);
        };
      const hook = typeof property === 'string' ? hooks[property as keyof AfterCallHooks] : undefined;
      if (hook)
        return async (first: unknown, ids: readonly string[], ...rest: unknown[]) => {
          const answer = await method(first, ids, ...rest);
          await hook(ids);
          return answer;
        };
      return method;
    },
  }) as MemoryStore;
  return { store: watched, rowsRead };
}
