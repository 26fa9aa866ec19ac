import type { QueryIntent } from '../api/contextApi.ts';
import type { RecallInput, RecallOutput, RecalledMemory, RetrievalBreakdown, ScoreBreakdown } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { AccessLogEntry, MemoryRecord } from '../domain/records.ts';
import { type MemoryCategory, MEMORY_CATEGORIES, MEMORY_SUBTYPES } from '../domain/taxonomy.ts';
import { extractEntities } from '../entities/extractEntities.ts';
import type { LexicalHit, MemoryFilter } from '../ports/memoryStore.ts';
import { analyzeQuery } from '../text/analyzer.ts';
import { newId } from '../util/ids.ts';
import { parseIsoTimestamp } from '../util/time.ts';
import { LIMITS, requireId, requirePositiveInt, requireQuery, requireStringList, requireUnitInterval } from '../validation.ts';
import { groupByPartition, scopeRef } from '../layers/layerScope.ts';
import { mergeByPrecedence } from '../layers/precedenceMerge.ts';
import { callScopes } from '../layers/readScopes.ts';
import { expandWithNeighbours } from './neighbourExpansion.ts';
import { explainMatch, scoreMemory } from './relevance.ts';
import { parseTimeExpressions } from './timeExpressions.ts';
import { detectIntent } from './queryIntent.ts';

/** A recalled memory before it is shaped for output, kept for context assembly. */
export interface ScoredMemory {
  memory: MemoryRecord;
  score: number;
  similarity: number;
  breakdown: ScoreBreakdown;
}

/** What one partition's search needs from the query; computed once per recall. */
interface PartitionSearch {
  query: string;
  terms: ReturnType<typeof analyzeQuery>;
  embedding: Float32Array | null;
  limit: number;
  minSimilarity: number;
  now: Date;
  intent: QueryIntent;
  hint: { after: string | undefined; before: string | undefined } | null;
  candidateLimit: number;
  queryEntities: ReadonlySet<string>;
  typeWeight: (category: MemoryCategory, subtype: string, intent: QueryIntent) => number;
}

export interface RecallOptions {
  /** Tool name written to the access log. */
  tool: string;
  /** Type multiplier for a memory under the detected intent; defaults to no type preference. */
  typeWeight?: (category: MemoryCategory, subtype: string, intent: QueryIntent) => number;
  intent?: QueryIntent;
  /** Project scope applied when the input names none (the server's workspace). */
  defaultProjectId?: string | null;
  /** Record access (recall_memories does; previews from the panel do not). */
  logAccess?: boolean;
  /** How many candidates each signal contributes before scoring. */
  candidateLimit?: number;
}

const TIME_BOOST = 1.15;
/** Half-width of the window boosted around a point in time such as "two weeks ago". */
const AROUND_MS = 3.5 * 86_400_000;
/** The fewest top hits that lend score to their neighbours. */
const NEIGHBOUR_MIN_SEEDS = 20;
/** How many results past the limit the layer merge looks at, as a multiple of the limit. */
const MERGE_WINDOW = 3;
/** Memories further apart in time than this are not one conversation, even when stored one after another. */
const CONVERSATION_GAP_MS = 2 * 60 * 60 * 1000;


/** recall_memories (seed 000 §7.1, §8.1): candidates from every signal, one composite score, access logged. */
export class Recall {
  private readonly deps: CoreDeps;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  async recall(input: RecallInput, options: RecallOptions): Promise<RecallOutput & { scored: ScoredMemory[]; intent: QueryIntent }> {
    const userId = requireId(input.user_id, 'user_id');
    const query = requireQuery(input.query);
    const limit = requirePositiveInt(input.limit, 'limit', 10, LIMITS.recallLimit);
    const minSimilarity = requireUnitInterval(input.min_similarity, 'min_similarity', this.deps.config.minSimilarity);
    const now = this.deps.clock.now();
    const filter = this.buildFilter(userId, input, options);
    const scopes = callScopes(input, userId, filter.project_id, this.deps.config.layerDefaults);
    const intent = options.intent ?? detectIntent(query);
    const timeHint = parseTimeExpressions(query, now);
    // "two weeks ago" names a point, not an interval: memories within a few days of it are boosted.
    const around = timeHint.boostAround ? Date.parse(timeHint.boostAround) : null;
    const hintAfter = timeHint.after ?? (around !== null ? new Date(around - AROUND_MS).toISOString() : undefined);
    const hintBefore = timeHint.before ?? (around !== null ? new Date(around + AROUND_MS).toISOString() : undefined);
    const terms = analyzeQuery(query);
    const embedding = await this.deps.embeddings.embed(query);
    const search: PartitionSearch = {
      query,
      terms,
      embedding: embedding.vector,
      limit,
      minSimilarity,
      now,
      intent,
      hint: hintAfter !== undefined || hintBefore !== undefined ? { after: hintAfter, before: hintBefore } : null,
      candidateLimit: options.candidateLimit ?? Math.max(limit * 2, 50),
      queryEntities: new Set([...(input.focus_entities ?? []), ...(input.entities ?? []), ...extractEntities(query)].map((entity) => entity.toLowerCase())),
      typeWeight: options.typeWeight ?? (() => 1),
    };

    // One search per partition: the user's own (user, agent and session layers) and each shared layer's.
    const scored: ScoredMemory[] = [];
    let considered = 0;
    let vectorMethod: string | null = null;
    for (const [partition, group] of groupByPartition(scopes)) {
      const { project_id: _project, ...sharedFilter } = filter;
      const scoped: MemoryFilter = { ...(partition === userId ? filter : sharedFilter), user_id: partition, scopes: group.map(scopeRef) };
      const found = await this.searchPartition(scoped, search);
      scored.push(...found.scored);
      considered += found.considered;
      vectorMethod ??= found.vectorMethod;
    }
    scored.sort((a, b) => b.score - a.score || b.memory.created_at.localeCompare(a.memory.created_at));
    // More specific layers override conflicting less specific ones (seed 001); a window past the
    // limit leaves room for the results an override removes.
    const { kept, overrides } = mergeByPrecedence(scored.slice(0, limit * MERGE_WINDOW), this.deps.config.dedupThreshold);
    const top = kept.slice(0, limit);

    if (options.logAccess !== false && top.length > 0) {
      const at = now.toISOString();
      const entries: AccessLogEntry[] = top.map((entry) => ({
        access_id: newId('acc'),
        memory_id: entry.memory.memory_id,
        session_id: input.session_id ?? null,
        user_id: entry.memory.user_id,
        query_text: query,
        similarity_score: entry.similarity,
        tool: options.tool,
        accessed_at: at,
      }));
      this.deps.access.record(entries);
    }
    this.deps.events.emit({ type: 'recall', user_id: userId, query, returned: top.length });

    const mode = !this.deps.embeddings.provider
      ? 'lexical'
      : embedding.vector
        ? 'hybrid'
        : `lexical (embedding unavailable: ${embedding.error ?? 'unknown error'})`;
    const breakdown: RetrievalBreakdown = {
      by_category: countBy(top, (entry) => entry.memory.memory_category),
      by_subtype: countBy(top, (entry) => entry.memory.memory_subtype),
      entity_matches: top.filter((entry) => entry.breakdown.matched_entities.length > 0).length,
      semantic_matches: top.filter((entry) => entry.breakdown.semantic !== null && entry.breakdown.semantic >= minSimilarity).length,
      text_matches: top.filter((entry) => entry.breakdown.text_match > 0).length,
      candidates_considered: considered,
      mode,
      vector_method: vectorMethod,
      embedding_model: this.deps.embeddings.model,
      time_filter: search.hint ? { ...search.hint, matched: timeHint.matched } : null,
      searched_layers: scopes.map((scope) => scope.layer),
      overridden: [...overrides.values()].reduce((sum, list) => sum + list.length, 0),
    };
    const memories = top.map((entry) => {
      const recalled = toRecalled(entry);
      const overridden = overrides.get(entry.memory.memory_id);
      return overridden ? { ...recalled, overrides: overridden } : recalled;
    });
    return { memories, retrieval_breakdown: breakdown, scored: top, intent };
  }

  /** Candidates of one partition from every signal, scored; min_similarity already applied. */
  private async searchPartition(filter: MemoryFilter, search: PartitionSearch): Promise<{ scored: ScoredMemory[]; considered: number; vectorMethod: string | null }> {
    const partition = filter.user_id;
    const { terms, candidateLimit, limit } = search;
    const [lexical, vector] = await Promise.all([
      terms.length > 0 ? this.deps.store.searchLexical({ filter, terms, limit: candidateLimit }) : Promise.resolve([]),
      search.embedding && this.deps.embeddings.model
        ? this.deps.store.searchVector({ filter, vector: search.embedding, model: this.deps.embeddings.model, limit: Math.min(candidateLimit, Math.max(limit, 20)) })
        : Promise.resolve([]),
    ]);

    const expanded = this.deps.config.neighbourRadius > 0 ? await this.withNeighbours(filter, lexical, limit) : { hits: [...lexical], lentTo: new Set<string>() };
    // Expansion can add several neighbours per hit; only the best of them are worth fetching.
    const lexicalHits = expanded.hits.slice(0, candidateLimit);
    const topLexical = lexicalHits.reduce((max, hit) => Math.max(max, hit.score), 0);
    const queryWeight = new Map(terms.map((term) => [term.term, term.weight]));
    const totalQueryWeight = terms.reduce((sum, term) => sum + term.weight, 0);
    // Text scores are relative to the best hit; how much of the query that best hit covers says how
    // much the whole lexical signal is worth, so a lone weak match is not rated a perfect one.
    // One factor per query: it changes what scores mean, not the lexical order (which the LoCoMo
    // tuning split showed is best left to BM25 and neighbours alone).
    const bestHit = lexicalHits.find((hit) => hit.score === topLexical);
    const lexicalConfidence = bestHit ? 0.5 + 0.5 * coverage(bestHit.matched_terms, queryWeight, totalQueryWeight) : 0;
    const lexicalById = new Map(lexicalHits.map((hit) => [hit.memory_id, hit]));
    const vectorById = new Map(vector.map((hit) => [hit.memory_id, hit]));
    const ids = [...new Set([...lexicalById.keys(), ...vectorById.keys()])];
    const memories = ids.length > 0 ? await this.deps.store.getMemories(partition, ids) : [];

    const { queryEntities, hint } = search;
    const scored: ScoredMemory[] = [];
    for (const memory of memories) {
      const lexicalHit = lexicalById.get(memory.memory_id);
      const vectorHit = vectorById.get(memory.memory_id);
      const semantic = vectorHit ? Math.max(0, vectorHit.similarity) : null;
      const text = lexicalHit && topLexical > 0 ? (lexicalHit.score / topLexical) * lexicalConfidence : 0;
      // min_similarity governs the semantic signal; a lexical match stands on its own.
      if (text === 0 && (semantic === null || semantic < search.minSimilarity)) continue;
      const matchedEntities = memory.entities.filter((entity) => queryEntities.has(entity.toLowerCase()));
      const { score, breakdown } = scoreMemory(
        memory,
        {
          text,
          semantic,
          matched_terms: lexicalHit?.matched_terms ?? [],
          matched_entities: matchedEntities,
          entity_share: queryEntities.size > 0 ? Math.min(1, matchedEntities.length / queryEntities.size) : 0,
        },
        search.typeWeight(memory.memory_category, memory.memory_subtype, search.intent),
        search.now,
      );
      if (lexicalHit && lexicalHit.matched_terms.length === 0 && expanded.lentTo.has(memory.memory_id)) breakdown.signals.push('neighbour');
      const inTimeHint = hint !== null && withinHint(memory, hint.after, hint.before);
      scored.push({ memory, score: Math.min(1, inTimeHint ? score * TIME_BOOST : score), similarity: semantic ?? text, breakdown });
    }
    return { scored, considered: memories.length, vectorMethod: vector[0]?.method ?? null };
  }

  /**
   * Lends part of each top lexical hit's score to the memories stored right before and after it
   * in the same conversation (same session, close in time): in a dialogue the answer often sits
   * in the turn next to the one that shares the question's words (neighbourExpansion.ts).
   */
  private async withNeighbours(
    filter: MemoryFilter,
    lexical: readonly LexicalHit[],
    limit: number,
  ): Promise<{ hits: LexicalHit[]; lentTo: Set<string> }> {
    const seeds = lexical.slice(0, Math.max(2 * limit, NEIGHBOUR_MIN_SEEDS));
    if (seeds.length === 0) return { hits: [...lexical], lentTo: new Set() };
    const windows = await this.deps.store.adjacentMemories(filter, seeds.map((hit) => hit.memory_id), this.deps.config.neighbourRadius, CONVERSATION_GAP_MS);
    const adjacency = new Map<string, Set<string>>();
    const link = (a: string, b: string): void => {
      if (!adjacency.has(a)) adjacency.set(a, new Set());
      if (!adjacency.has(b)) adjacency.set(b, new Set());
      adjacency.get(a)!.add(b);
      adjacency.get(b)!.add(a);
    };
    for (const [id, window] of windows) {
      for (const chain of [window.before, window.after]) {
        let previous = id;
        for (const next of chain) {
          link(previous, next);
          previous = next;
        }
      }
    }
    const expanded = expandWithNeighbours(seeds, (id) => [...(adjacency.get(id) ?? [])]);
    const seedIds = new Set(seeds.map((hit) => hit.memory_id));
    const rest = lexical.slice(seeds.length).filter((hit) => !expanded.some((entry) => entry.memory_id === hit.memory_id));
    const lentTo = new Set(expanded.filter((entry) => !seedIds.has(entry.memory_id)).map((entry) => entry.memory_id));
    return { hits: [...expanded, ...rest], lentTo };
  }

  buildFilter(userId: string, input: Omit<RecallInput, 'query' | 'user_id'>, options: Pick<RecallOptions, 'defaultProjectId'>): MemoryFilter {
    const categories = input.memory_categories ?? [];
    for (const category of categories) {
      if (!MEMORY_CATEGORIES.includes(category)) {
        throw new MemoryError('INVALID_INPUT', `Unknown memory category "${category}". Use: ${MEMORY_CATEGORIES.join(', ')}.`, { details: { field: 'memory_categories' } });
      }
    }
    const subtypes = requireStringList(input.memory_subtypes, 'memory_subtypes', 30, 40);
    for (const subtype of subtypes) {
      if (!(MEMORY_SUBTYPES as string[]).includes(subtype)) {
        throw new MemoryError('INVALID_INPUT', `Unknown memory subtype "${subtype}". Use: ${MEMORY_SUBTYPES.join(', ')}.`, { details: { field: 'memory_subtypes' } });
      }
    }
    const after = input.time_range?.after ? parseIsoTimestamp(input.time_range.after, 'time_range.after') : undefined;
    const before = input.time_range?.before ? parseIsoTimestamp(input.time_range.before, 'time_range.before') : undefined;
    if (after && before && after > before) {
      throw new MemoryError('INVALID_INPUT', 'time_range.after must not be later than time_range.before.', { details: { field: 'time_range' } });
    }
    const projectId = input.project_id !== undefined ? input.project_id : options.defaultProjectId;
    return {
      user_id: userId,
      ...(projectId !== undefined ? { project_id: projectId === null ? null : requireId(projectId, 'project_id') } : {}),
      ...(categories.length > 0 ? { categories } : {}),
      ...(subtypes.length > 0 ? { subtypes } : {}),
      ...(input.entities && input.entities.length > 0 ? { entities: requireStringList(input.entities, 'entities', LIMITS.entities, LIMITS.entityChars) } : {}),
      ...(input.tags && input.tags.length > 0 ? { tags: requireStringList(input.tags, 'tags', LIMITS.tags, LIMITS.tagChars) } : {}),
      ...(after ? { after } : {}),
      ...(before ? { before } : {}),
      ...(input.include_low_confidence ? {} : { min_confidence: 0.8 }),
      state: 'live',
    };
  }
}

/** Share of the query's term weight a hit's matched terms carry, in [0, 1]. */
function coverage(matched: readonly string[], weights: ReadonlyMap<string, number>, total: number): number {
  if (total <= 0) return 0;
  return Math.min(1, matched.reduce((sum, term) => sum + (weights.get(term) ?? 0), 0) / total);
}

function withinHint(memory: MemoryRecord, after: string | undefined, before: string | undefined): boolean {
  const at = memory.event_time ?? memory.created_at;
  return (after === undefined || at >= after) && (before === undefined || at <= before);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

export function toRecalled(entry: ScoredMemory): RecalledMemory {
  const { memory } = entry;
  return {
    memory_id: memory.memory_id,
    layer: memory.layer,
    scope_id: memory.scope_id,
    content: memory.content,
    memory_category: memory.memory_category,
    memory_subtype: memory.memory_subtype,
    entities: memory.entities,
    similarity: Math.round(entry.similarity * 1000) / 1000,
    relevance_score: Math.round(entry.score * 1000) / 1000,
    confidence: memory.confidence,
    created_at: memory.created_at,
    ...(memory.event_time ? { event_time: memory.event_time } : {}),
    metadata: memory.metadata,
    importance: memory.importance,
    access_count: memory.access_count,
    pinned: memory.pinned,
    source_type: memory.source_type,
    tags: memory.tags,
    score_breakdown: entry.breakdown,
    why_matched: explainMatch(entry.breakdown),
  };
}
