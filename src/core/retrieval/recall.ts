import type { QueryIntent } from '../api/contextApi.ts';
import type {
  RecallInput,
  RecallOutput,
  RecalledMemory,
  RetrievalBreakdown,
  ScoreBreakdown,
} from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { AccessLogEntry, MemoryRecord } from '../domain/records.ts';
import { type MemoryCategory, MEMORY_CATEGORIES, MEMORY_SUBTYPES } from '../domain/taxonomy.ts';
import { extractEntities } from '../entities/extractEntities.ts';
import type { LexicalHit, MemoryFilter } from '../ports/memoryStore.ts';
import type { WeightedTerm } from '../ports/memoryStore.ts';
import { newId } from '../util/ids.ts';
import { parseIsoTimestamp } from '../util/time.ts';
import {
  LIMITS,
  requireId,
  requirePositiveInt,
  requireQuery,
  requireStringList,
  requireUnitInterval,
} from '../validation.ts';
import { groupByPartition, scopeRef } from '../layers/layerScope.ts';
import { mergeByPrecedence } from '../layers/precedenceMerge.ts';
import { callScopes } from '../layers/readScopes.ts';
import { conversationKey } from './conversationKey.ts';
import { expandWithNeighbours } from './neighbourExpansion.ts';
import { queryConcepts, searchTermsOf, type QueryConcept } from './queryConcepts.ts';
import { conceptInformation, coverageOf, coversTopic, hasTopic, type Coverage } from './queryCoverage.ts';
import { explainMatch, scoreMemory } from './relevance.ts';
import { applyRelevanceFloor, partialFloor } from './relevanceFloor.ts';
import { parseTimeExpressions } from './timeExpressions.ts';
import { happenedWithin, IN_WINDOW_TERM, type TimeWindow, windowConcept, windowInformation } from './timeWindow.ts';
import { detectIntent } from './queryIntent.ts';
import { outsideScope, projectOf, questionScope, rankOutsideAfterScope } from './namedScope.ts';
import { recalledRef } from '../memoryEvents.ts';
import type { AnchorReport } from '../anchors/anchorModel.ts';
import { anchorReports, freshnessWeight } from '../anchors/anchorFreshness.ts';
import { anchorsOf, pathEntity } from '../anchors/anchorModel.ts';
import { requireAnchorPath } from '../anchors/anchorPaths.ts';

/** A recalled memory before it is shaped for output, kept for context assembly. */
export interface ScoredMemory {
  memory: MemoryRecord;
  score: number;
  similarity: number;
  breakdown: ScoreBreakdown;
  /** Vocabulary bridges that carried part of the match ("database ← postgresql"), for why_matched. */
  bridges: string[];
  /** The score the relevance floor is compared with (relevanceFloor.ts). */
  gate: number;
  /** A turn of a marked conversation (conversationKey.ts), for the floor's partial matches. */
  dialogTurn: boolean;
  /** The memory's code anchors with their status; absent when it has none. */
  anchors?: AnchorReport[];
}

/** The best candidate the relevance floor held back, so an empty answer can say how close it came. */
interface BelowFloor {
  count: number;
  best: { memory_id: string; relevance_score: number } | null;
}

/** What one partition's search needs from the query; computed once per recall. */
interface PartitionSearch {
  query: string;
  /** The query's concepts, then each alternate query's (alternates count ALTERNATE_QUERY_CREDIT). */
  variants: QueryConcept[][];
  terms: WeightedTerm[];
  embedding: Float32Array | null;
  limit: number;
  /** The relevance floor: an answer needs one result at least this good (min_similarity, default config.relevanceFloor). */
  minScore: number;
  /** Results beside one that clears the floor need at least this (relevanceFloor.ts: partial matches). */
  partialScore: number;
  /** A memory found only by its vector must be at least this similar (config.minSimilarity). */
  vectorOnlyMinSimilarity: number;
  /** Gate on the score before the caller's type weights (context assembly weighs types for packing, not relevance). */
  floorBeforeTypeWeight: boolean;
  now: Date;
  intent: QueryIntent;
  /** Around a vague time ("two weeks ago"): memories in it get TIME_BOOST. */
  hint: { after: string | undefined; before: string | undefined } | null;
  /** A calendar window the query names ("in May 2023", "last week"): a concept of its coverage (timeWindow.ts). */
  window: TimeWindow | null;
  candidateLimit: number;
  queryEntities: ReadonlySet<string>;
  /** Entities the caller asked to focus on: a memory carrying one is relevant by request and skips the floor. */
  focusEntities: ReadonlySet<string>;
  typeWeight: (category: MemoryCategory, subtype: string, intent: QueryIntent) => number;
  /** recall_memories' path filter: every memory anchored to the path is a candidate, relevant by request. */
  byPath: boolean;
  /** The project the call is bound to (input project_id or the workspace's): the question's project when it names none. */
  boundProject: string | null;
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
  /** Apply the relevance floor before typeWeight (get_relevant_context, whose type weights order packing). */
  floorBeforeTypeWeight?: boolean;
  /** Emit the recall event (default); get_relevant_context announces what it packed instead of its candidates. */
  announce?: boolean;
  /**
   * Keep partial matches beside an answer that clears the default floor (relevanceFloor.ts);
   * default true. get_relevant_context packs a token budget and keeps full matches only.
   */
  partialMatches?: boolean;
}

/** Memories near a vague time the query names ("two weeks ago"); a calendar window is covered instead (timeWindow.ts). */
const TIME_BOOST = 1.15;
/** Half-width of the window boosted around a point in time such as "two weeks ago". */
const AROUND_MS = 3.5 * 86_400_000;
/**
 * Share of a hit's score each adjacent turn of its conversation receives (two steps away, its
 * square). Chosen on the LoCoMo tuning conversations: 0.7 -> 0.8 raised recall@10 there, 0.9 and
 * above let neighbours crowd out the turns that match (recall@1 falls).
 */
const NEIGHBOUR_DECAY = 0.8;
/**
 * Share of a question turn's score the next turn of its conversation receives: the reply to a
 * question is where its answer usually is, so it gets more than NEIGHBOUR_DECAY, and a little less
 * than the question, which still ranks first on its own words. LoCoMo, 0.8 -> 0.96: recall@10
 * 76.2 -> 77.5, @5 66.5 -> 67.8; 1.0 made replies overtake their questions (temporal @1 62 -> 49).
 */
const ANSWER_SHARE = 0.96;
/** Candidates each signal contributes, as a multiple of the limit (at least CANDIDATE_MIN). */
const CANDIDATE_MULTIPLE = 4;
const CANDIDATE_MIN = 50;
/** The fewest top hits that lend score to their neighbours. */
const NEIGHBOUR_MIN_SEEDS = 20;
/** How many results past the limit the layer merge looks at, as a multiple of the limit. */
const MERGE_WINDOW = 3;
/** Turns of one conversation further apart in time than this are not adjacent (a new sitting). */
const CONVERSATION_GAP_MS = 2 * 60 * 60 * 1000;
/**
 * Share of the text score that orders memories of equal coverage by BM25 (term frequency, length).
 * Relative to the call's best hit, but bounded: it can only lower a memory's coverage by this share.
 */
const BM25_SHARE = 0.25;
/** An alternate query's match counts this much of the main query's: the agent's guess, not the user's words. */
const ALTERNATE_QUERY_CREDIT = 0.9;
/** Search weight of an alternate query's words relative to the query's own. */
const ALTERNATE_QUERY_WEIGHT = 0.8;
/**
 * Share of its score a memory of another project than the question names keeps, then of the lowest
 * score of the named project's matches (it ranks after all of them, and never clears the floor: namedScope.ts).
 */
const OTHER_PROJECT_SHARE = 0.5;

/** recall_memories (seed 000 §7.1, §8.1): candidates from every signal, one composite score, access logged. */
export class Recall {
  private readonly deps: CoreDeps;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  async recall(
    input: RecallInput,
    options: RecallOptions,
  ): Promise<RecallOutput & { scored: ScoredMemory[]; intent: QueryIntent }> {
    const userId = requireId(input.user_id, 'user_id');
    const query = requireQuery(input.query);
    const limit = requirePositiveInt(input.limit, 'limit', 10, LIMITS.recallLimit);
    const minScore = requireUnitInterval(input.min_similarity, 'min_similarity', this.deps.config.relevanceFloor);
    const alternates = requireStringList(
      input.alternate_queries,
      'alternate_queries',
      LIMITS.alternateQueries,
      LIMITS.queryChars,
    );
    const now = this.deps.clock.now();
    const filter = this.buildFilter(userId, input, options);
    const scopes = callScopes(input, userId, filter.project_id, this.deps.config.layerDefaults);
    const intent = options.intent ?? detectIntent(query);
    const timeHint = parseTimeExpressions(query, now);
    // "two weeks ago" names a point, not an interval: memories within a few days of it are boosted.
    const around = timeHint.boostAround ? Date.parse(timeHint.boostAround) : null;
    const hint =
      around !== null
        ? { after: new Date(around - AROUND_MS).toISOString(), before: new Date(around + AROUND_MS).toISOString() }
        : null;
    const window: TimeWindow | null =
      timeHint.after !== undefined || timeHint.before !== undefined
        ? { after: timeHint.after, before: timeHint.before }
        : null;
    // Time phrases ("in May", "two weeks ago") became the window or the boost; as words they would
    // count as topics no memory names and pull every memory's coverage down. A query that is only a
    // vague time keeps its words: without them it would ask nothing.
    const topical = timeHint.matched.reduce((text, phrase) => text.replace(phrase, ' '), query);
    const variants = [
      queryConcepts(queryConcepts(topical).length > 0 || window !== null ? topical : query),
      ...alternates.map((alternate) => queryConcepts(alternate)),
    ];
    const terms = mergeTerms([
      searchTermsOf(variants[0]),
      ...variants.slice(1).map((concepts) => searchTermsOf(concepts, ALTERNATE_QUERY_WEIGHT)),
    ]);
    const embedding = await this.deps.embeddings.embed(query);
    const search: PartitionSearch = {
      query,
      variants,
      terms,
      embedding: embedding.vector,
      limit,
      minScore,
      // An explicit min_similarity is a bar for every result; partial matches only go with the default floor.
      partialScore: partialFloor(minScore, input.min_similarity === undefined && options.partialMatches !== false),
      // An explicit min_similarity loosens or tightens the vector-only gate too; the default keeps it strict.
      vectorOnlyMinSimilarity: input.min_similarity ?? this.deps.config.minSimilarity,
      floorBeforeTypeWeight: options.floorBeforeTypeWeight === true,
      now,
      intent,
      hint,
      window,
      candidateLimit: options.candidateLimit ?? Math.max(limit * CANDIDATE_MULTIPLE, CANDIDATE_MIN),
      queryEntities: new Set(
        [...(input.focus_entities ?? []), ...(input.entities ?? []), ...extractEntities(query)].map((entity) =>
          entity.toLowerCase(),
        ),
      ),
      focusEntities: new Set((input.focus_entities ?? []).map((entity) => entity.toLowerCase())),
      typeWeight: options.typeWeight ?? (() => 1),
      byPath: input.path !== undefined || isFileFilter(input.entities),
      boundProject: filter.project_id ?? null,
    };

    // One search per partition: the user's own (user, agent and session layers) and each shared layer's.
    const scored: ScoredMemory[] = [];
    let considered = 0;
    let vectorMethod: string | null = null;
    const belowFloor: BelowFloor = { count: 0, best: null };
    for (const [partition, group] of groupByPartition(scopes)) {
      const { project_id: _project, ...sharedFilter } = filter;
      const scoped: MemoryFilter = {
        ...(partition === userId ? filter : sharedFilter),
        user_id: partition,
        scopes: group.map(scopeRef),
      };
      const found = await this.searchPartition(scoped, search);
      scored.push(...found.scored);
      considered += found.considered;
      belowFloor.count += found.belowFloor.count;
      if (
        found.belowFloor.best &&
        (!belowFloor.best || found.belowFloor.best.relevance_score > belowFloor.best.relevance_score)
      )
        belowFloor.best = found.belowFloor.best;
      vectorMethod ??= found.vectorMethod;
    }
    rankOutsideAfterScope(scored, (entry) => entry.breakdown.signals.includes('other_project'), OTHER_PROJECT_SHARE);
    scored.sort(byScore);
    await this.weighByFreshness(scored, limit);
    // Abstain unless one candidate clears the floor; partial matches then go with it, marked.
    const floor = applyRelevanceFloor(scored, minScore);
    belowFloor.count += floor.heldBack.length;
    for (const held of floor.heldBack) {
      if (!belowFloor.best || held.score > belowFloor.best.relevance_score)
        belowFloor.best = { memory_id: held.memory.memory_id, relevance_score: Math.round(held.score * 1000) / 1000 };
    }
    for (const entry of floor.partial) entry.breakdown.signals.push('partial');
    // More specific layers override conflicting less specific ones (seed 001); a window past the
    // limit leaves room for the results an override removes.
    const { kept, overrides } = mergeByPrecedence(
      floor.kept.slice(0, limit * MERGE_WINDOW),
      this.deps.config.dedupThreshold,
    );
    const top = kept.slice(0, limit);
    // An override can pull in a result past the settled ones: it is checked before it is returned.
    if (top.some((entry) => entry.anchors === undefined && anchorsOf(entry.memory.metadata).length > 0)) {
      for (const entry of top) if (entry.anchors === undefined) await this.weigh(entry);
      top.sort(byScore);
    }

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
    if (options.announce !== false) {
      this.deps.events.emit({
        type: 'recall',
        user_id: userId,
        query,
        returned: top.length,
        tool: options.tool,
        memories: top.map((entry) => recalledRef(entry.memory)),
      });
    }

    const mode = !this.deps.embeddings.provider
      ? 'lexical'
      : embedding.vector
        ? 'hybrid'
        : `lexical (embedding unavailable: ${embedding.error ?? 'unknown error'})`;
    const breakdown: RetrievalBreakdown = {
      by_category: countBy(top, (entry) => entry.memory.memory_category),
      by_subtype: countBy(top, (entry) => entry.memory.memory_subtype),
      entity_matches: top.filter((entry) => entry.breakdown.matched_entities.length > 0).length,
      semantic_matches: top.filter(
        (entry) => entry.breakdown.semantic !== null && entry.breakdown.semantic >= search.vectorOnlyMinSimilarity,
      ).length,
      text_matches: top.filter((entry) => entry.breakdown.text_match > 0).length,
      candidates_considered: considered,
      mode,
      vector_method: vectorMethod,
      embedding_model: this.deps.embeddings.model,
      time_filter: window || hint ? { ...(window ?? hint), matched: timeHint.matched } : null,
      searched_layers: scopes.map((scope) => scope.layer),
      overridden: [...overrides.values()].reduce((sum, list) => sum + list.length, 0),
      relevance_floor: minScore,
      below_floor: belowFloor.count,
      abstained: top.length === 0,
      ...(top.length === 0
        ? {
            best_below_floor: belowFloor.best,
            note: belowFloor.best
              ? `Memory has nothing on this (best match ${belowFloor.best.relevance_score.toFixed(2)} < floor ${minScore}).`
              : 'Memory has nothing on this.',
          }
        : {}),
    };
    const memories = top.map((entry) => {
      const recalled = toRecalled(entry);
      const overridden = overrides.get(entry.memory.memory_id);
      return overridden ? { ...recalled, overrides: overridden } : recalled;
    });
    return { memories, retrieval_breakdown: breakdown, scored: top, intent };
  }

  /**
   * Anchored memories get their anchors' status (checked now when this process has a workspace,
   * cached on file modification; else as the editor last stored it) and lose score when their code
   * changed or is gone (anchorFreshness.ts). Memories without anchors cost nothing here.
   */
  private async weighByFreshness(scored: ScoredMemory[], settle: number): Promise<void> {
    // Weights only lower a score, so candidates are checked best first until `settle` checked ones
    // score at least the next unchecked candidate could: nothing below can reach the results, and
    // a recall checks about `limit` memories' anchors, not every candidate's.
    const weighed: number[] = [];
    for (const entry of scored) {
      if (weighed.filter((score) => score >= entry.score).length >= settle) break;
      await this.weigh(entry);
      weighed.push(entry.score);
    }
    scored.sort(byScore);
  }

  private async weigh(entry: ScoredMemory): Promise<void> {
    const reports = await anchorReports(entry.memory, this.deps.anchors);
    if (reports.length === 0) return;
    entry.anchors = reports;
    entry.score *= freshnessWeight(reports);
  }

  /** Candidates of one partition from every signal, scored; the relevance floor already applied. */
  private async searchPartition(
    filter: MemoryFilter,
    search: PartitionSearch,
  ): Promise<{ scored: ScoredMemory[]; considered: number; vectorMethod: string | null; belowFloor: BelowFloor }> {
    const partition = filter.user_id;
    const { terms, candidateLimit, limit, variants } = search;
    const conceptTerms = [...new Set(variants.flatMap((concepts) => concepts.map((concept) => concept.term)))];
    const topical = hasTopic(variants[0]);
    const [lexical, vector, stats, windowed] = await Promise.all([
      terms.length > 0 ? this.deps.store.searchLexical({ filter, terms, limit: candidateLimit }) : Promise.resolve([]),
      search.embedding && this.deps.embeddings.model
        ? this.deps.store.searchVector({
            filter,
            vector: search.embedding,
            model: this.deps.embeddings.model,
            limit: Math.min(candidateLimit, Math.max(limit, 20)),
          })
        : Promise.resolve([]),
      conceptTerms.length > 0
        ? this.deps.store.termStatistics(partition, conceptTerms)
        : Promise.resolve({ documents: 0, frequencies: new Map<string, number>() }),
      // A question that is only a time ("what happened last week?") is answered by the window's
      // memories; with a topic, the window ranks the topic's memories and fetches none of its own.
      search.window ? this.windowMembers(filter, search.window, topical ? 0 : candidateLimit) : Promise.resolve(null),
    ]);
    const vectorById = new Map(vector.map((hit) => [hit.memory_id, hit]));
    const firstIds = [...new Set([...lexical.map((hit) => hit.memory_id), ...vectorById.keys()])];
    const records = new Map(
      (firstIds.length > 0 ? await this.deps.store.getMemories(partition, firstIds) : []).map((memory) => [
        memory.memory_id,
        memory,
      ]),
    );
    for (const memory of windowed?.items ?? []) records.set(memory.memory_id, memory);

    // Absolute text scores: the share of the query's information each memory covers (queryCoverage.ts),
    // with BM25 ordering memories of equal coverage. A window the query names is one more concept.
    // A window no memory is in tells topics apart no better, and a memory can carry the whole topic of
    // another date: the window counts only when it holds memories, and at most as much as the topic, so a
    // memory covering all of the topic clears the floor whenever it happened (people misdate). A
    // question without a topic asks for the window alone: its phrasing ("what happened") counts nothing.
    // A question that is only a time, about a time no memory is in, gets nothing.
    const counted = windowed !== null && (windowed.inWindow > 0 || !topical);
    const covered = counted
      ? [topical ? [...variants[0], windowConcept()] : [windowConcept()], ...variants.slice(1)]
      : variants;
    // The project the question names is its scope, not its topic: its name's words count for no
    // memory, unless the name is all the question asks about.
    const scope = questionScope(
      search.query,
      [...records.values()].map(projectOf).filter((project): project is string => project !== null),
      search.boundProject,
    );
    const information = variants.map((concepts) => {
      const values = conceptInformation(concepts, stats);
      const topic = values.map((value, index) => (scope.nameTerms.has(concepts[index].term) ? 0 : value));
      return topic.some((value, index) => value > 0 && concepts[index].topical) ? topic : values;
    });
    if (counted) {
      const topic = information[0].reduce((sum, value) => sum + value, 0);
      // Over the user's memories, as the words' IDFs (a question that is only a time has none: the window is all of it).
      const window = windowInformation(windowed.inWindow, Math.max(stats.documents, windowed.inWindow));
      information[0] = topical ? [...information[0], Math.min(window, topic)] : [window];
    }
    const inWindow = (id: string): boolean => {
      const memory = records.get(id);
      return (
        search.window !== null &&
        memory !== undefined &&
        happenedWithin(memory, search.window.after, search.window.before)
      );
    };
    const topBm25 = lexical.reduce((max, hit) => Math.max(max, hit.score), 0);
    const coverageById = new Map<string, Coverage>();
    const coveredWindow = new Set<string>();
    const lexicalIds = new Set(lexical.map((hit) => hit.memory_id));
    // The window's memories the words did not find cover the window alone.
    const textHits = [
      ...lexical,
      ...(windowed?.items ?? [])
        .filter((memory) => !lexicalIds.has(memory.memory_id))
        .map((memory) => ({ memory_id: memory.memory_id, score: 0, matched_terms: [] })),
    ];
    const own: LexicalHit[] = textHits.map((hit) => {
      const terms = new Set(hit.matched_terms);
      // The window qualifies the topic: a memory of that time about nothing asked of is not an answer.
      if (counted && inWindow(hit.memory_id) && (!topical || coversTopic(variants[0], terms))) {
        terms.add(IN_WINDOW_TERM);
        coveredWindow.add(hit.memory_id);
      }
      const coverage = bestCoverage(covered, information, terms);
      coverageById.set(hit.memory_id, coverage);
      const bm25 = topBm25 > 0 ? hit.score / topBm25 : 0;
      return {
        memory_id: hit.memory_id,
        score: coverage.value * (1 - BM25_SHARE + BM25_SHARE * bm25),
        matched_terms: hit.matched_terms,
      };
    });
    own.sort((a, b) => b.score - a.score);
    // With a path, every memory anchored to it is a candidate, whether or not it shares the query's words.
    const listed = search.byPath
      ? (await this.deps.store.listMemories({ filter, sort: 'recency', offset: 0, limit: candidateLimit })).items
      : [];
    for (const memory of listed) records.set(memory.memory_id, memory);
    const listedIds = new Set(listed.map((memory) => memory.memory_id));

    const expanded =
      this.deps.config.neighbourRadius > 0
        ? await this.withNeighbours(filter, own, limit, records)
        : { hits: own, lentTo: new Set<string>() };
    // Expansion can add several neighbours per hit; only the best of them are worth scoring.
    const lexicalHits = expanded.hits.slice(0, candidateLimit);
    const lexicalById = new Map(lexicalHits.map((hit) => [hit.memory_id, hit]));
    const ids = [...new Set([...lexicalById.keys(), ...vectorById.keys(), ...listedIds])];

    const { queryEntities, hint } = search;
    const scored: ScoredMemory[] = [];
    const belowFloor: BelowFloor = { count: 0, best: null };
    for (const id of ids) {
      const memory = records.get(id);
      if (!memory) continue;
      const lexicalHit = lexicalById.get(id);
      const vectorHit = vectorById.get(id);
      const semantic = vectorHit ? Math.max(0, vectorHit.similarity) : null;
      const text = Math.min(1, lexicalHit?.score ?? 0);
      // A memory found only by its vector must be close to the query in meaning, not just nearest.
      const requested = listedIds.has(id);
      if (text === 0 && (semantic === null || semantic < search.vectorOnlyMinSimilarity) && !requested) continue;
      const matchedEntities = memory.entities.filter((entity) => queryEntities.has(entity.toLowerCase()));
      const typeMultiplier = search.typeWeight(memory.memory_category, memory.memory_subtype, search.intent);
      const { score, breakdown } = scoreMemory(
        memory,
        {
          text,
          semantic,
          matched_terms: lexicalHit?.matched_terms ?? [],
          matched_entities: matchedEntities,
          entity_share: queryEntities.size > 0 ? Math.min(1, matchedEntities.length / queryEntities.size) : 0,
        },
        typeMultiplier,
        search.now,
      );
      const lent = expanded.lentTo.has(id);
      if (lent) breakdown.signals.push('neighbour');
      if (coveredWindow.has(id)) breakdown.signals.push('time');
      const inTimeHint = hint !== null && happenedWithin(memory, hint.after, hint.before);
      const otherProject = outsideScope(scope, memory);
      if (otherProject) breakdown.signals.push('other_project');
      const final = Math.min(1, (inTimeHint ? score * TIME_BOOST : score) * (otherProject ? OTHER_PROJECT_SHARE : 1));
      // A near miss never clears the floor on the words it shares: only a caller's min_similarity 0 sees it.
      const gated = otherProject
        ? 0
        : search.floorBeforeTypeWeight && typeMultiplier > 0
          ? Math.min(1, final / typeMultiplier)
          : final;
      const focused =
        search.focusEntities.size > 0 &&
        matchedEntities.some((entity) => search.focusEntities.has(entity.toLowerCase()));
      // A memory carrying a focus entity, or one the caller asked for by path, is relevant by request: it clears the floor.
      const gate = focused || requested ? Math.max(gated, search.minScore) : gated;
      if (gate < search.partialScore) {
        belowFloor.count++;
        if (!belowFloor.best || final > belowFloor.best.relevance_score)
          belowFloor.best = { memory_id: id, relevance_score: Math.round(final * 1000) / 1000 };
        continue;
      }
      scored.push({
        memory,
        score: final,
        similarity: semantic ?? text,
        breakdown,
        bridges: coverageById.get(id)?.bridges ?? [],
        gate,
        dialogTurn: conversationKey(memory) !== null,
      });
    }
    return { scored, considered: ids.length, vectorMethod: vector[0]?.method ?? null, belowFloor };
  }

  /** The memories of a window the query names, most recent first (at most `limit`), and how many happened in it. */
  private async windowMembers(
    filter: MemoryFilter,
    window: TimeWindow,
    limit: number,
  ): Promise<{ items: MemoryRecord[]; inWindow: number }> {
    const members = await this.deps.store.listMemories({
      filter: { ...filter, ...window },
      sort: 'recency',
      offset: 0,
      limit,
    });
    return { items: members.items, inWindow: members.total };
  }

  /**
   * Lends part of each top hit's text score to the turns stored right before and after it in the
   * same conversation: in a dialogue the answer often sits in the turn next to the one that shares
   * the question's words (neighbourExpansion.ts). Only dialog turns the client marked as one
   * conversation are joined (conversationKey.ts), never memories merely stored close in time.
   * Fetches the neighbours' records into `records`.
   */
  private async withNeighbours(
    filter: MemoryFilter,
    ranked: readonly LexicalHit[],
    limit: number,
    records: Map<string, MemoryRecord>,
  ): Promise<{ hits: LexicalHit[]; lentTo: Set<string> }> {
    const seeds = ranked.slice(0, Math.max(2 * limit, NEIGHBOUR_MIN_SEEDS)).filter((hit) => hit.score > 0);
    const turnSeeds = seeds.filter((hit) => {
      const record = records.get(hit.memory_id);
      return record !== undefined && conversationKey(record) !== null;
    });
    if (turnSeeds.length === 0) return { hits: [...ranked], lentTo: new Set() };
    const windows = await this.deps.store.adjacentMemories(
      filter,
      turnSeeds.map((hit) => hit.memory_id),
      this.deps.config.neighbourRadius,
      CONVERSATION_GAP_MS,
    );
    const missing = [...new Set([...windows.values()].flatMap((window) => [...window.before, ...window.after]))].filter(
      (id) => !records.has(id),
    );
    if (missing.length > 0)
      for (const memory of await this.deps.store.getMemories(filter.user_id, missing))
        records.set(memory.memory_id, memory);
    const adjacency = new Map<string, Set<string>>();
    const follows = new Set<string>();
    const link = (a: string, b: string): void => {
      if (!adjacency.has(a)) adjacency.set(a, new Set());
      if (!adjacency.has(b)) adjacency.set(b, new Set());
      adjacency.get(a)!.add(b);
      adjacency.get(b)!.add(a);
    };
    for (const [id, window] of windows) {
      const key = conversationKey(records.get(id)!);
      for (const [chain, forward] of [
        [window.before, false],
        [window.after, true],
      ] as const) {
        let previous = id;
        for (const next of chain) {
          // The chain ends at the first memory that is not a turn of the same conversation.
          const neighbour = records.get(next);
          if (!neighbour || conversationKey(neighbour) !== key) break;
          link(previous, next);
          follows.add(forward ? `${previous}>${next}` : `${next}>${previous}`);
          previous = next;
        }
      }
    }
    // The turn right after a question is its likely answer: it gets ANSWER_SHARE of the question's score.
    const expanded = expandWithNeighbours(
      seeds,
      (id) => [...(adjacency.get(id) ?? [])],
      { combine: 'or', decay: NEIGHBOUR_DECAY },
      (from, to) =>
        follows.has(`${from}>${to}`) && isQuestion(records.get(from)!.content) ? ANSWER_SHARE / NEIGHBOUR_DECAY : 1,
    );
    const seedIds = new Set(seeds.map((hit) => hit.memory_id));
    const reached = new Set(expanded.map((entry) => entry.memory_id));
    const rest = ranked.filter((hit) => !reached.has(hit.memory_id));
    const lentTo = new Set(expanded.filter((entry) => !seedIds.has(entry.memory_id)).map((entry) => entry.memory_id));
    return { hits: [...expanded, ...rest].sort((a, b) => b.score - a.score), lentTo };
  }

  buildFilter(
    userId: string,
    input: Omit<RecallInput, 'query' | 'user_id'>,
    options: Pick<RecallOptions, 'defaultProjectId'>,
  ): MemoryFilter {
    const categories = input.memory_categories ?? [];
    for (const category of categories) {
      if (!MEMORY_CATEGORIES.includes(category)) {
        throw new MemoryError(
          'INVALID_INPUT',
          `Unknown memory category "${category}". Use: ${MEMORY_CATEGORIES.join(', ')}.`,
          { details: { field: 'memory_categories' } },
        );
      }
    }
    const subtypes = requireStringList(input.memory_subtypes, 'memory_subtypes', 30, 40);
    for (const subtype of subtypes) {
      if (!(MEMORY_SUBTYPES as string[]).includes(subtype)) {
        throw new MemoryError(
          'INVALID_INPUT',
          `Unknown memory subtype "${subtype}". Use: ${MEMORY_SUBTYPES.join(', ')}.`,
          { details: { field: 'memory_subtypes' } },
        );
      }
    }
    const after = input.time_range?.after ? parseIsoTimestamp(input.time_range.after, 'time_range.after') : undefined;
    const before = input.time_range?.before
      ? parseIsoTimestamp(input.time_range.before, 'time_range.before')
      : undefined;
    if (after && before && after > before) {
      throw new MemoryError('INVALID_INPUT', 'time_range.after must not be later than time_range.before.', {
        details: { field: 'time_range' },
      });
    }
    const projectId = input.project_id !== undefined ? input.project_id : options.defaultProjectId;
    if (input.path !== undefined && input.entities && input.entities.length > 0) {
      throw new MemoryError(
        'INVALID_INPUT',
        'path and entities cannot be combined: path already filters by the file:<path> entity.',
        { details: { field: 'path' } },
      );
    }
    const entities = input.path !== undefined ? [pathEntity(requireAnchorPath(input.path, 'path'))] : input.entities;
    return {
      user_id: userId,
      ...(projectId !== undefined
        ? { project_id: projectId === null ? null : requireId(projectId, 'project_id') }
        : {}),
      ...(categories.length > 0 ? { categories } : {}),
      ...(subtypes.length > 0 ? { subtypes } : {}),
      ...(entities && entities.length > 0
        ? { entities: requireStringList(entities, 'entities', LIMITS.entities, LIMITS.entityChars) }
        : {}),
      ...(input.tags && input.tags.length > 0
        ? { tags: requireStringList(input.tags, 'tags', LIMITS.tags, LIMITS.tagChars) }
        : {}),
      ...(after ? { after } : {}),
      ...(before ? { before } : {}),
      ...(input.include_low_confidence ? {} : { min_confidence: 0.8 }),
      state: 'live',
    };
  }
}

/** A dialog turn that asks something: its reply is likely the answer. */
function isQuestion(content: string): boolean {
  return content.includes('?');
}

/**
 * Entities that are all `file:<path>` ask "what do we know about these files", like `path`: every
 * memory anchored to (or naming) them is a candidate, whatever the query's words.
 */
function isFileFilter(entities: readonly string[] | undefined): boolean {
  return entities !== undefined && entities.length > 0 && entities.every((entity) => entity.startsWith('file:'));
}

function byScore(a: ScoredMemory, b: ScoredMemory): number {
  return b.score - a.score || b.memory.created_at.localeCompare(a.memory.created_at);
}

/** One list of search terms from several queries; a term in more than one keeps its highest weight. */
function mergeTerms(lists: readonly WeightedTerm[][]): WeightedTerm[] {
  const weights = new Map<string, number>();
  for (const list of lists)
    for (const { term, weight } of list) if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

/** The best coverage of a memory over the query and its alternates (an alternate's counts ALTERNATE_QUERY_CREDIT). */
function bestCoverage(
  variants: readonly QueryConcept[][],
  information: readonly number[][],
  memoryTerms: ReadonlySet<string>,
): Coverage {
  let best: Coverage = { value: 0, bridges: [] };
  variants.forEach((concepts, index) => {
    const found = coverageOf(concepts, information[index], memoryTerms);
    const value = found.value * (index === 0 ? 1 : ALTERNATE_QUERY_CREDIT);
    if (value > best.value)
      best = { value, bridges: index === 0 ? found.bridges : [...found.bridges, 'alternate query'] };
  });
  return best;
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
    why_matched: explainMatch(entry.breakdown, entry.bridges),
    ...(entry.anchors ? { anchors: entry.anchors } : {}),
  };
}
