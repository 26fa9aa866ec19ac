/**
 * Query analysis: what every partition's search needs from one recall call, computed once — the
 * query's concepts and search terms (with the alternate queries'), the time it names, the entities
 * it names, the floors and the candidate pool.
 */
import type { QueryIntent } from '../api/contextApi.ts';
import type { RecallInput } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';
import { extractEntities } from '../entities/extractEntities.ts';
import type { MemoryFilter, WeightedTerm } from '../ports/memoryStore.ts';
import { hasConcepts, searchTermsOf, sharedQueryConcepts, type SharedQueryConcept } from './queryConcepts.ts';
import { partialFloor } from './relevanceFloor.ts';
import { isFileFilter } from './recallFilter.ts';
import { detectIntent } from './queryIntent.ts';
import type { RecallOptions } from './recallOptions.ts';
import { parseTimeExpressions, type TimeHint } from './timeExpressions.ts';
import { partSearchTerms } from './wordParts.ts';
import { timeRuleOn } from './timeRuleSwitches.ts';
import type { TimeWindow } from './timeWindow.ts';
import { identifierWholesOf } from './unknownIdentifiers.ts';
import { vagueTimeOf, type VagueTime } from './vagueTimeSignal.ts';

/** What one partition's search needs from the query; computed once per recall. */
export interface RecallSearch {
  query: string;
  /** The query's concepts, then each alternate query's (alternates count ALTERNATE_QUERY_CREDIT). */
  variants: ReadonlyArray<readonly SharedQueryConcept[]>;
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
  /** Around a vague time ("two weeks ago"): memories in it get TIME_BOOST (vagueTimeSignal.ts). */
  hint: VagueTime | null;
  /**
   * A calendar window the query names ("in May 2023", "last week"): a concept of its coverage
   * (timeWindow.ts). Made only of dates without a year ("in May"), it moves to the latest
   * occurrence the memories reach when they stop before it (yearlessDates.ts, candidate gathering).
   */
  window: TimeWindow | null;
  /** The window is made only of dates without a year, read as of `now`. */
  yearlessWindow: boolean;
  candidateLimit: number;
  queryEntities: ReadonlySet<string>;
  /** Entities the caller asked to focus on: a memory carrying one is relevant by request and skips the floor. */
  focusEntities: ReadonlySet<string>;
  typeWeight: (category: MemoryCategory, subtype: string, intent: QueryIntent) => number;
  /** recall_memories' path filter: every memory anchored to the path is a candidate, relevant by request. */
  byPath: boolean;
  /** Index terms of the identifiers the query and its alternates write whole (unknownIdentifiers.ts). */
  identifierWholes: ReadonlyMap<string, readonly string[]>;
  /** The project the call is bound to (input project_id or the workspace's): the question's project when it names none. */
  boundProject: string | null;
  /** Query words a lexical hit may hold inside a longer word of its own (wordParts.ts). */
  parts: readonly string[];
}

/** The call's values recall validated before the analysis. */
export interface ValidatedRecall {
  query: string;
  alternates: string[];
  limit: number;
  minScore: number;
  filter: MemoryFilter;
  now: Date;
}

/** The analysed query, with the time phrases it names (for retrieval_breakdown.time_filter). */
export interface AnalysedQuery {
  search: RecallSearch;
  timeHint: TimeHint;
  /** Why the query has no vector although a provider is configured; undefined when it has one. */
  embeddingError: string | undefined;
}

/** Candidates each signal contributes, as a multiple of the limit (at least CANDIDATE_MIN). */
const CANDIDATE_MULTIPLE = 4;
const CANDIDATE_MIN = 50;
/** Search weight of an alternate query's words relative to the query's own. */
const ALTERNATE_QUERY_WEIGHT = 0.8;

export async function analyseRecallQuery(
  deps: Pick<CoreDeps, 'config' | 'embeddings'>,
  input: RecallInput,
  options: RecallOptions,
  call: ValidatedRecall,
): Promise<AnalysedQuery> {
  const { query, filter, now } = call;
  const intent = options.intent ?? detectIntent(query);
  const timeHint: TimeHint = timeRuleOn('timeExpressions') ? parseTimeExpressions(query, now) : { matched: [] };
  const window: TimeWindow | null =
    timeHint.after !== undefined || timeHint.before !== undefined
      ? { after: timeHint.after, before: timeHint.before }
      : null;
  // Time phrases ("in May", "two weeks ago") became the window or the boost; as words they would
  // count as topics no memory names and pull every memory's coverage down. A query that is only a
  // vague time keeps its words: without them it would ask nothing.
  const topical = timeHint.matched.reduce((text, phrase) => text.replace(phrase, ' '), query);
  const variants = [
    sharedQueryConcepts(window !== null || hasConcepts(topical) ? topical : query),
    ...call.alternates.map((alternate) => sharedQueryConcepts(alternate)),
  ];
  const terms = mergeTerms([
    searchTermsOf(variants[0]),
    ...variants.slice(1).map((concepts) => searchTermsOf(concepts, ALTERNATE_QUERY_WEIGHT)),
  ]);
  const embedding = await deps.embeddings.embed(query);
  const search: RecallSearch = {
    query,
    variants,
    terms,
    embedding: embedding.vector,
    limit: call.limit,
    minScore: call.minScore,
    // An explicit min_similarity is a bar for every result; partial matches only go with the default floor.
    partialScore: partialFloor(call.minScore, input.min_similarity === undefined && options.partialMatches !== false),
    // An explicit min_similarity loosens or tightens the vector-only gate too; the default keeps it strict.
    vectorOnlyMinSimilarity: input.min_similarity ?? deps.config.minSimilarity,
    floorBeforeTypeWeight: options.floorBeforeTypeWeight === true,
    now,
    intent,
    // "two weeks ago" names a point, not an interval: memories within a few days of it are boosted.
    hint: timeRuleOn('vagueTimeSignal') ? vagueTimeOf(timeHint) : null,
    window,
    yearlessWindow: timeHint.yearless === true,
    candidateLimit: options.candidateLimit ?? Math.max(call.limit * CANDIDATE_MULTIPLE, CANDIDATE_MIN),
    queryEntities: new Set(
      [...(input.focus_entities ?? []), ...(input.entities ?? []), ...extractEntities(query)].map((entity) =>
        entity.toLowerCase(),
      ),
    ),
    focusEntities: new Set((input.focus_entities ?? []).map((entity) => entity.toLowerCase())),
    typeWeight: options.typeWeight ?? (() => 1),
    byPath: input.path !== undefined || isFileFilter(input.entities),
    boundProject: filter.project_id ?? null,
    identifierWholes: identifierWholesOf([query, ...call.alternates]),
    parts: partSearchTerms(variants),
  };
  return { search, timeHint, embeddingError: embedding.vector ? undefined : (embedding.error ?? 'unknown error') };
}

/** One list of search terms from several queries; a term in more than one keeps its highest weight. */
function mergeTerms(lists: readonly WeightedTerm[][]): WeightedTerm[] {
  // One query (no alternates) is its own merge: searchTermsOf lists each term once.
  if (lists.length === 1) return lists[0];
  const weights = new Map<string, number>();
  for (const list of lists)
    for (const { term, weight } of list) if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
