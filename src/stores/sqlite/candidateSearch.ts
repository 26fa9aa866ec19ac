import type { TurnFacts } from '../../core/domain/dialogTurn.ts';
import type { RankingFacts } from '../../core/domain/rankingFacts.ts';
import type { DuplicateCandidate } from '../../core/ports/duplicateGuard.ts';
import type {
  AdjacentMemories,
  LexicalHit,
  LexicalQuery,
  MemoryFilter,
  LexicalSearch,
  TermStatistics,
  VectorHit,
  VectorQuery,
} from '../../core/ports/memoryStore.ts';
import { compileMemoryFilter } from './memoryFilter.ts';
import { CONVERSATION, QUESTION } from './metaColumns.ts';
import type { MemoryMeta } from './memoryMeta.ts';
import { readDuplicateCandidates, readEmbeddings } from './memoryTables.ts';
import type { StatementCache } from './statementCache.ts';
import type { SqliteConnection } from './sqliteConnection.ts';
import type { UserCaches } from './userCaches.ts';
import type { UserSearchIndexes } from './userSearchIndexes.ts';
import { searchVectorIndex } from './vectorSearch.ts';

/**
 * Retrieval candidates over a user's in-memory indexes: full-text and vector hits, term
 * statistics, a memory's neighbours in store order and the turn and ranking facts of memories
 * (from the metas, never the rows), each filtered before the cut. The first
 * call of a user waits for the sliced (or persisted) load rather than building in one stretch.
 */
export class CandidateSearch {
  private readonly connection: SqliteConnection;
  private readonly caches: UserCaches;
  private readonly indexes: UserSearchIndexes;

  constructor(connection: SqliteConnection, caches: UserCaches, indexes: UserSearchIndexes) {
    this.connection = connection;
    this.caches = caches;
    this.indexes = indexes;
  }

  async searchLexical(query: LexicalQuery): Promise<LexicalHit[]> {
    if (query.limit <= 0 || query.terms.length === 0) return [];
    await this.indexes.prepareLexical(query.filter.user_id);
    return this.connection.read('searchLexical', ({ sql }) => this.lexicalHits(sql, query));
  }

  /**
   * The memories searchLexical finds for `query`, as the duplicate rule reads them: the search and
   * the read of their text in one read transaction, the cost of one read instead of two per store.
   */
  async duplicateCandidates(query: LexicalQuery): Promise<DuplicateCandidate[]> {
    if (query.limit <= 0 || query.terms.length === 0) return [];
    await this.indexes.prepareLexical(query.filter.user_id);
    return this.connection.read('duplicateCandidates', ({ sql }) => {
      const ids = this.lexicalHits(sql, query).map((hit) => hit.memory_id);
      // After lexicalHits: the user's state is loaded and caught up, so the rows it holds are current.
      const rows = this.caches.state(query.filter.user_id).rows;
      return readDuplicateCandidates(sql, query.filter.user_id, ids, (memoryId) => rows.heldRow(memoryId));
    });
  }

  private lexicalHits(sql: StatementCache, query: LexicalQuery): LexicalHit[] {
    const state = this.caches.state(query.filter.user_id);
    // Built here only when the caches were reset during the sliced build (another process rewrote the file).
    const index = this.indexes.lexical(sql, query.filter.user_id, state);
    const accept = state.metas.rowTest(compileMemoryFilter(query.filter));
    // The filter reads the metas and only answers, so a refused best need not cost an exhaustive search.
    const hits = index.search(
      query.terms,
      query.limit,
      (id) => {
        const row = state.metas.rowOf(id);
        return row !== undefined && accept(row);
      },
      { pureFilter: true },
    );
    if (query.parts === undefined || query.parts.length === 0) return hits;
    const parts = index.partMatches(
      hits.map((hit) => hit.memory_id),
      query.parts,
    );
    return hits.map((hit, rank) => ({ ...hit, part_matches: parts[rank] }));
  }

  async termStatistics(userId: string, terms: readonly string[]): Promise<TermStatistics> {
    // Recall asks for these alongside its search: both wait for the same sliced (or persisted) index
    // rather than this one building it in a single synchronous stretch.
    if (terms.length > 0) await this.indexes.prepareLexical(userId);
    return this.connection.read('termStatistics', ({ sql }) => this.statistics(sql, userId, terms));
  }

  /**
   * The search and the statistics in one read: one check for other processes' commits (a WAL-index
   * header pread) instead of two, and both describe one state of the file.
   */
  async searchLexicalWithStatistics(query: LexicalQuery, terms: readonly string[]): Promise<LexicalSearch> {
    const userId = query.filter.user_id;
    const searched = query.limit > 0 && query.terms.length > 0;
    if (searched || terms.length > 0) await this.indexes.prepareLexical(userId);
    return this.connection.read('searchLexicalWithStatistics', ({ sql }) => ({
      hits: searched ? this.lexicalHits(sql, query) : [],
      statistics: this.statistics(sql, userId, terms),
    }));
  }

  private statistics(sql: StatementCache, userId: string, terms: readonly string[]): TermStatistics {
    const state = this.caches.state(userId);
    const index = this.indexes.lexical(sql, userId, state);
    return {
      documents: index.size,
      frequencies: new Map(terms.map((term) => [term, index.documentFrequency(term)])),
    };
  }

  async searchVector(query: VectorQuery): Promise<VectorHit[]> {
    if (query.limit <= 0 || query.vector.length === 0) return [];
    await this.indexes.prepareVector(query.filter.user_id, query.model, query.vector.length);
    return this.connection.read('searchVector', ({ sql }) => {
      const userId = query.filter.user_id;
      const state = this.caches.state(userId);
      const index = this.indexes.vector(sql, userId, query.model, query.vector.length, state);
      return searchVectorIndex({
        index,
        model: query.model,
        query: query.vector,
        accept: state.metas.rowTest(compileMemoryFilter(query.filter)),
        limit: query.limit,
        loadVectors: (ids) => readEmbeddings(sql, userId, ids),
      });
    });
  }

  async adjacentMemories(
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
    maxGapMs: number,
  ): Promise<Map<string, AdjacentMemories>> {
    if (radius > 0 && memoryIds.length > 0) await this.caches.loadInSlices(filter.user_id);
    return this.connection.read('adjacentMemories', () => {
      const out = new Map<string, AdjacentMemories>();
      if (radius <= 0 || memoryIds.length === 0) return out;
      const state = this.caches.state(filter.user_id);
      const accept = compileMemoryFilter(filter);
      for (const memoryId of new Set(memoryIds)) {
        const window = state.adjacent(memoryId, radius, maxGapMs, accept);
        if (window !== null) out.set(memoryId, window);
      }
      return out;
    });
  }

  /** From the metas' turn-fact columns (memoryMeta.ts): no row is read; forgotten and unknown ids are absent. */
  async turnFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, TurnFacts>> {
    if (memoryIds.length > 0) await this.caches.loadInSlices(userId);
    return this.connection.read('turnFacts', () => {
      const out = new Map<string, TurnFacts>();
      if (memoryIds.length === 0) return out;
      const state = this.caches.state(userId);
      const columns = state.metas.columns;
      for (const memoryId of memoryIds) {
        const row = state.liveRowOf(memoryId);
        if (row !== undefined)
          out.set(memoryId, {
            conversation: columns.string(row, CONVERSATION),
            question: columns.flag(row, QUESTION),
          });
      }
      return out;
    });
  }

  /** From the metas' columns (memoryMeta.ts): no row is read; forgotten and unknown ids are absent. */
  async rankingFacts(userId: string, memoryIds: readonly string[]): Promise<Map<string, RankingFacts>> {
    if (memoryIds.length > 0) await this.caches.loadInSlices(userId);
    return this.connection.read('rankingFacts', () => {
      const out = new Map<string, RankingFacts>();
      if (memoryIds.length === 0) return out;
      const state = this.caches.state(userId);
      for (const memoryId of memoryIds) {
        const meta = state.metas.get(memoryId);
        if (meta !== undefined && !meta.deleted) out.set(memoryId, rankingFactsOfMeta(meta));
      }
      return out;
    });
  }
}

/**
 * A meta's ranking facts: the same values rankingFactsOf makes of the row the meta was made from
 * (its layer, category and subtype were checked there, hence the casts from the meta's strings).
 */
function rankingFactsOfMeta(meta: MemoryMeta): RankingFacts {
  return {
    conversation: meta.conversation,
    question: meta.question,
    memory_id: meta.memory_id,
    layer: meta.layer as RankingFacts['layer'],
    project_id: meta.project_id,
    declared_project: meta.declared_project,
    memory_category: meta.category as RankingFacts['memory_category'],
    memory_subtype: meta.subtype as RankingFacts['memory_subtype'],
    entities: meta.entities,
    importance: meta.importance,
    decay_factor: meta.decay_factor,
    confidence: meta.confidence,
    access_count: meta.access_count,
    pinned: meta.pinned,
    created_ms: meta.created_ms,
    last_accessed_ms: meta.last_accessed_ms,
    happened_ms: meta.time_ms,
    anchored: meta.anchored,
  };
}
