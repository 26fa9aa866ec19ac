import type { StoredEmbedding } from '../../core/domain/records.ts';
import { iterateMetaSources, readEmbeddings, readMemories, readMetaPage } from './memoryTables.ts';
import type { PersistedIndexes } from './persistedIndexes.ts';
import type { SqliteConnection } from './sqliteConnection.ts';
import type { StatementCache } from './statementCache.ts';
import { UserMemoryState, vectorIndexKey } from './userMemoryState.ts';

/** Rows per slice of a sliced load or index build: a few milliseconds of work between two yields. */
export const INDEX_PAGE_ROWS = 1_000;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Per-user state this process keeps (userMemoryState.ts), keyed by user: loaded on first use (from
 * the persisted index, else from the rows in slices), refreshed from SQLite after writes, and
 * dropped whenever it may have missed one.
 */
export class UserCaches {
  readonly users = new Map<string, UserMemoryState>();
  private readonly connection: SqliteConnection;
  private readonly persisted: () => PersistedIndexes | null;

  constructor(connection: SqliteConnection, persisted: () => PersistedIndexes | null) {
    this.connection = connection;
    this.persisted = persisted;
  }

  /**
   * The user's metadata, loaded now if it is not. A caller that cannot wait for a sliced load in
   * progress (a write or a listing, inside its transaction) finishes it in one go.
   */
  state(userId: string): UserMemoryState {
    let state = this.users.get(userId);
    if (state !== undefined) {
      if (state.loading !== null)
        this.loadMetaPages(this.connection.require('load').sql, userId, state, Number.MAX_SAFE_INTEGER);
      return state;
    }
    state = new UserMemoryState();
    for (const source of iterateMetaSources(this.connection.require('load').sql, userId)) state.addMeta(source);
    this.users.set(userId, state);
    return state;
  }

  /** Loads a user's metadata in slices that yield (first search, warm-up); shares a load in progress. */
  async loadInSlices(userId: string): Promise<UserMemoryState> {
    const persisted = this.persisted();
    if (!this.users.has(userId) && persisted !== null) await persisted.restore(userId);
    let state = this.users.get(userId);
    if (state === undefined) {
      const loading = new UserMemoryState();
      const progress: { afterRow: number; done: Promise<void> | null } = { afterRow: 0, done: null };
      loading.loading = progress;
      this.users.set(userId, loading);
      const done = (async () => {
        // Stops when the load finished (here or by a caller that could not wait) or the caches were reset.
        while (loading.loading !== null && this.users.get(userId) === loading) {
          await this.connection.read('loadUser', ({ sql }) => {
            if (loading.loading !== null) this.loadMetaPages(sql, userId, loading, 1);
          });
          await yieldToEventLoop();
        }
      })();
      // Set after the fact: a small user is loaded before the first await and `loading` is already null.
      progress.done = done;
      done.catch(() => {
        // The caller that awaits it reports the failure; a cache that may be partial is dropped.
        if (this.users.get(userId) === loading) this.users.delete(userId);
      });
      state = loading;
    }
    const pending = state.loading?.done;
    if (pending) await pending;
    return this.users.get(userId) ?? (await this.connection.read('loadUser', () => this.state(userId)));
  }

  /** Reads up to `pages` pages of metadata into a loading state; clears `loading` at the end of the rows. */
  private loadMetaPages(sql: StatementCache, userId: string, state: UserMemoryState, pages: number): void {
    for (let page = 0; page < pages && state.loading !== null; page++) {
      const next = readMetaPage(sql, userId, state.loading.afterRow, INDEX_PAGE_ROWS);
      for (const source of next.sources) state.addMeta(source);
      if (next.lastRow === null) state.loading = null;
      else state.loading.afterRow = next.lastRow;
    }
  }

  /** Re-reads rows (and vectors) from SQLite into a loaded user's caches; absent rows are dropped. */
  refreshMemories(userId: string, memoryIds: readonly string[]): void {
    const state = this.users.get(userId);
    if (state === undefined) return;
    const { sql } = this.connection.require('refresh');
    const rows = new Map(readMemories(sql, userId, memoryIds).map((m) => [m.memory_id, m]));
    const vectors = state.wantsVectors ? readEmbeddings(sql, userId, memoryIds) : new Map<string, StoredEmbedding>();
    for (const id of memoryIds) {
      const row = rows.get(id);
      if (row === undefined) state.forget(id);
      else state.applyMemory(row, vectors.get(id) ?? null);
    }
  }

  /** Access bookkeeping of loaded users, as committed. */
  applyTouches(
    touched: readonly { user_id: string; memory_id: string; access_count: number; last_accessed: string }[],
  ): void {
    for (const entry of touched)
      this.users.get(entry.user_id)?.touch(entry.memory_id, entry.access_count, entry.last_accessed);
  }

  /** Where this user's first search got its index: `persisted` (loaded from the index file), `rows` (built), or null (none yet). */
  indexOrigin(userId: string): 'persisted' | 'rows' | null {
    const state = this.users.get(userId);
    return state === undefined || state.lexical === null ? null : state.origin;
  }

  /** Where the user's vector index of `model` came from, as indexOrigin; null when there is none yet. */
  vectorIndexOrigin(userId: string, model: string, dims: number): 'persisted' | 'rows' | null {
    return this.users.get(userId)?.vectorIndexes.get(vectorIndexKey(model, dims))?.origin ?? null;
  }
}
