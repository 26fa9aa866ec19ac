import type { Logger } from '../../core/ports/logger.ts';
import { LexicalIndex } from '../common/lexicalIndex.ts';
import { BinaryVectorIndex } from './binaryVectorIndex.ts';
import { iterateLexicalSources, readLexicalPage, saveReanalyzed } from './lexicalDocuments.ts';
import type { LexicalSource } from './lexicalDocuments.ts';
import { iterateModelEmbeddings, readModelEmbeddingPage } from './memoryTables.ts';
import type { PersistedIndexes } from './persistedIndexes.ts';
import type { SqliteConnection } from './sqliteConnection.ts';
import type { StatementCache } from './statementCache.ts';
import { INDEX_PAGE_ROWS, type UserCaches, yieldToEventLoop } from './userCaches.ts';
import { type UserMemoryState, vectorIndexKey } from './userMemoryState.ts';

/**
 * A user's full-text and vector indexes, built on first use from the rows in slices of
 * INDEX_PAGE_ROWS, yielding to the event loop between them, so other requests (other windows, MCP
 * calls) are served during a 100K-memory build. Concurrent callers share one build.
 */
export class UserSearchIndexes {
  private readonly connection: SqliteConnection;
  private readonly caches: UserCaches;
  private readonly persisted: () => PersistedIndexes | null;
  private readonly log: Logger;

  constructor(connection: SqliteConnection, caches: UserCaches, persisted: () => PersistedIndexes | null, log: Logger) {
    this.connection = connection;
    this.caches = caches;
    this.persisted = persisted;
    this.log = log;
  }

  async prepareLexical(userId: string): Promise<void> {
    const state = await this.caches.loadInSlices(userId);
    if (state.lexical !== null) return;
    let building = state.lexicalBuilding;
    if (building === null) {
      const index = new LexicalIndex();
      // Registered before the build starts: its first page runs synchronously, and for a small or
      // empty user that page is also the last, which clears the registration it must find.
      const started = { index, done: Promise.resolve() };
      state.lexicalBuilding = started;
      started.done = this.buildLexicalInSlices(userId, state, index);
      started.done.catch(() => {
        // The caller that awaits it reports the failure; the next search starts a new build.
        if (state.lexicalBuilding === started) state.lexicalBuilding = null;
      });
      building = started;
    }
    await building.done;
  }

  private async buildLexicalInSlices(userId: string, state: UserMemoryState, index: LexicalIndex): Promise<void> {
    const reanalyzed: LexicalSource[] = [];
    let after = 0;
    for (;;) {
      // Read and insert in one synchronous turn: no write can land between a page's read and its insertion.
      const last = await this.connection.read('buildLexicalIndex', ({ sql }) => {
        const page = readLexicalPage(sql, userId, after, INDEX_PAGE_ROWS);
        for (const source of page.sources) {
          index.upsert(source.memory_id, source.analyzed);
          if (source.reanalyzed) reanalyzed.push(source);
        }
        if (page.lastRow === null) {
          state.lexical = index;
          state.lexicalBuilding = null;
        }
        return page.lastRow;
      });
      if (last === null) break;
      after = last;
      await yieldToEventLoop();
    }
    if (reanalyzed.length > 0) this.saveAnalyses(userId, reanalyzed);
    this.persisted()?.builtFromRows(userId);
  }

  async prepareVector(userId: string, model: string, dims: number): Promise<void> {
    const key = vectorIndexKey(model, dims);
    const state = await this.caches.loadInSlices(userId);
    if (state.vectorIndexes.has(key)) return;
    let building = state.vectorBuilding.get(key);
    if (building === undefined) {
      const index = new BinaryVectorIndex<number>(dims);
      // Registered before the build starts, as the lexical build is.
      const started = { index, model, done: Promise.resolve() };
      state.vectorBuilding.set(key, started);
      started.done = this.buildVectorInSlices(userId, model, state, index);
      started.done.catch(() => {
        if (state.vectorBuilding.get(key) === started) state.vectorBuilding.delete(key);
      });
      building = started;
    }
    await building.done;
  }

  private async buildVectorInSlices(
    userId: string,
    model: string,
    state: UserMemoryState,
    index: BinaryVectorIndex<number>,
  ): Promise<void> {
    let after = 0;
    for (;;) {
      const last = await this.connection.read('buildVectorIndex', ({ sql }) => {
        const page = readModelEmbeddingPage(sql, userId, model, index.dims, after, INDEX_PAGE_ROWS);
        for (const [memoryId, vector] of page.vectors) {
          const row = state.liveRowOf(memoryId);
          if (row !== undefined) index.upsert(memoryId, vector, row);
        }
        if (page.lastRow === null) {
          state.vectorBuilding.delete(vectorIndexKey(model, index.dims));
          state.addVectorIndex(model, index);
        }
        return page.lastRow;
      });
      if (last === null) break;
      after = last;
      await yieldToEventLoop();
    }
    this.persisted()?.builtFromRows(userId);
  }

  /** The user's full-text index; built in one go only when the caches were reset during the sliced build. */
  lexical(sql: StatementCache, userId: string, state: UserMemoryState): LexicalIndex {
    return state.lexical ?? this.buildLexical(sql, userId, state);
  }

  /** The user's vector index of `model`; built in one go only when the caches were reset during the sliced build. */
  vector(
    sql: StatementCache,
    userId: string,
    model: string,
    dims: number,
    state: UserMemoryState,
  ): BinaryVectorIndex<number> {
    return state.vectorIndexes.get(vectorIndexKey(model, dims)) ?? this.buildVector(sql, userId, model, dims, state);
  }

  private saveAnalyses(userId: string, reanalyzed: LexicalSource[]): void {
    // Saved by a background group commit. They only spare the next process the work: if saving fails, that process analyses again.
    this.connection
      .write(
        'saveAnalysis',
        ({ sql: statements }) => saveReanalyzed(statements, userId, reanalyzed),
        undefined,
        'background',
      )
      .catch((error: unknown) => {
        this.log.warn('saving lexical analyses failed; they will be redone when the index is next built', error);
      });
  }

  private buildLexical(sql: StatementCache, userId: string, state: UserMemoryState): LexicalIndex {
    const index = new LexicalIndex();
    const reanalyzed: LexicalSource[] = [];
    for (const source of iterateLexicalSources(sql, userId)) {
      index.upsert(source.memory_id, source.analyzed);
      if (source.reanalyzed) reanalyzed.push(source);
    }
    state.lexical = index;
    if (reanalyzed.length > 0) this.saveAnalyses(userId, reanalyzed);
    this.persisted()?.builtFromRows(userId);
    return index;
  }

  private buildVector(
    sql: StatementCache,
    userId: string,
    model: string,
    dims: number,
    state: UserMemoryState,
  ): BinaryVectorIndex<number> {
    const index = new BinaryVectorIndex<number>(dims);
    for (const [memoryId, vector] of iterateModelEmbeddings(sql, userId, model, dims)) {
      const row = state.liveRowOf(memoryId);
      if (row !== undefined) index.upsert(memoryId, vector, row);
    }
    state.addVectorIndex(model, index);
    this.persisted()?.builtFromRows(userId);
    return index;
  }
}
