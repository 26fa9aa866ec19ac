import type { MemoryStore } from '../core/ports/memoryStore.ts';

/**
 * One opened store lent to several cores (one per project and layer set): its indexes exist once
 * in the process however many windows use it. open() and close() count; the real store opens
 * with the first core and closes with the last.
 */
export class SharedStore {
  private users = 0;
  private opening: Promise<void> | null = null;
  readonly view: MemoryStore;

  private readonly store: MemoryStore;

  constructor(store: MemoryStore) {
    this.store = store;
    const shared = this;
    this.view = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'open') return () => shared.acquire();
        if (property === 'close') return () => shared.release();
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  get holders(): number {
    return this.users;
  }

  private async acquire(): Promise<void> {
    this.users++;
    this.opening ??= this.store.open();
    try {
      await this.opening;
    } catch (error) {
      // A failed open is not kept: the next core tries again.
      this.users--;
      this.opening = null;
      throw error;
    }
  }

  private async release(): Promise<void> {
    if (this.users === 0) return;
    this.users--;
    if (this.users > 0) return;
    this.opening = null;
    await this.store.close();
  }
}
