/**
 * Candidate gathering for one partition: the lexical (BM25) and vector searches, the corpus
 * statistics of the query's concepts, the members of a calendar window the query names, and the
 * ranking facts of everything found (MemoryStore.rankingFacts: no row is read to rank). Ranking
 * happens after, on these candidates only.
 */
import type { CoreDeps } from '../coreDeps.ts';
import { rankingFactsOf, type RankingFacts } from '../domain/rankingFacts.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type {
  LexicalHit,
  LexicalQuery,
  LexicalSearch,
  MemoryFilter,
  TermStatistics,
  VectorHit,
} from '../ports/memoryStore.ts';
import { hasTopic } from './queryCoverage.ts';
import type { CandidateRows } from './candidateRows.ts';
import type { RecallSearch } from './recallSearch.ts';
import type { TimeWindow } from './timeWindow.ts';
import { readsWindowTopic, SMALL_WINDOW, windowTopicHits } from './windowTopicMembers.ts';
import { placeYearlessDate } from './yearlessDates.ts';
import { recordedWithinReach, tellingReach, toldOfWindow } from './toldOfWindow.ts';
import { timeRuleOn } from './timeRuleSwitches.ts';

/** A window's memories, most recent first (at most the pool), and how many happened in it. */
export interface WindowMembers {
  items: MemoryRecord[];
  inWindow: number;
}

export interface Candidates {
  /** The lexical search's hits, then a small window's members on the topic it cut (windowTopicMembers.ts). */
  lexical: LexicalHit[];
  vectorById: Map<string, VectorHit>;
  /** Document frequencies of every variant's concept terms, for the coverage scale's information. */
  stats: TermStatistics;
  /** Null when the query names no calendar window. */
  windowed: WindowMembers | null;
  /** Candidates recorded before or after the window that tell of a time inside it (toldOfWindow.ts): they cover it too. */
  toldOfWindow: ReadonlySet<string>;
  /** Ranking facts of every candidate found so far, by id; later stages add the ones they bring in. */
  facts: Map<string, RankingFacts>;
  /** The vector search's method ("exact", an index), or null without one. */
  vectorMethod: string | null;
}

type StoreDeps = Pick<CoreDeps, 'store' | 'embeddings'>;

/**
 * The keyword search and the statistics of the concept terms: one store call when both are asked
 * for (one read on SQLite), else the one that is; no concept terms count no documents.
 */
function lexicalSearch(deps: StoreDeps, query: LexicalQuery, conceptTerms: readonly string[]): Promise<LexicalSearch> {
  const none: TermStatistics = { documents: 0, frequencies: new Map<string, number>() };
  if (query.terms.length > 0 && conceptTerms.length > 0)
    return deps.store.searchLexicalWithStatistics(query, conceptTerms);
  if (query.terms.length > 0) return deps.store.searchLexical(query).then((hits) => ({ hits, statistics: none }));
  if (conceptTerms.length > 0)
    return deps.store
      .termStatistics(query.filter.user_id, conceptTerms)
      .then((statistics) => ({ hits: [], statistics }));
  return Promise.resolve({ hits: [], statistics: none });
}

/** `rows` keeps the full rows the window's listing brings, so the ones returned are not read again. */
export async function gatherCandidates(
  deps: StoreDeps,
  filter: MemoryFilter,
  search: RecallSearch,
  rows: CandidateRows,
): Promise<Candidates> {
  const partition = filter.user_id;
  const { terms, candidateLimit, limit, variants } = search;
  const conceptTerms = [...new Set(variants.flatMap((concepts) => concepts.map((concept) => concept.term)))];
  const topical = hasTopic(variants[0]);
  const [{ hits: lexical, statistics: stats }, vector, listedWindow] = await Promise.all([
    lexicalSearch(deps, { filter, terms, limit: candidateLimit, parts: search.parts }, conceptTerms),
    search.embedding && deps.embeddings.model
      ? deps.store.searchVector({
          filter,
          vector: search.embedding,
          model: deps.embeddings.model,
          limit: Math.min(candidateLimit, Math.max(limit, 20)),
        })
      : Promise.resolve([]),
    // A question that is only a time ("what happened last week?") is answered by the window's
    // memories; with a topic, the window ranks the topic's memories and fetches none of its own.
    search.window ? windowMembers(deps, filter, search.window, topical ? 0 : candidateLimit) : Promise.resolve(null),
  ]);
  // A date without a year whose default occurrence holds none of the memories: the latest one they
  // reach (yearlessDates.ts). Only then is anything listed; every later stage reads the moved window.
  // Decided once per call, on the first partition searched (the user's own): the partitions
  // searched after it read the same window.
  let windowed = listedWindow;
  if (windowed !== null && search.window !== null && search.yearlessWindow && timeRuleOn('yearlessDates')) {
    search.yearlessWindow = false;
    const placed = windowed.inWindow === 0 ? await placeYearlessDate(deps, filter, search.query, search.window) : null;
    if (placed !== null && placed !== search.window) {
      search.window = placed;
      windowed = await windowMembers(deps, filter, placed, topical ? 0 : candidateLimit);
    }
  }
  // A topical question's window ranks the topic's memories of that time; those the full pool cut are
  // read from a small window (windowTopicMembers.ts).
  const windowTopic =
    windowed !== null &&
    search.window !== null &&
    timeRuleOn('windowTopicMembers') &&
    readsWindowTopic(topical, lexical.length, candidateLimit, windowed.inWindow)
      ? windowTopicHits((await windowMembers(deps, filter, search.window, windowed.inWindow)).items, terms, lexical)
      : { hits: [], members: [] };
  const vectorById = new Map(vector.map((hit) => [hit.memory_id, hit]));
  const firstIds = [...new Set([...lexical.map((hit) => hit.memory_id), ...vectorById.keys()])];
  const facts =
    firstIds.length > 0 ? await deps.store.rankingFacts(partition, firstIds) : new Map<string, RankingFacts>();
  for (const memory of [...(windowed?.items ?? []), ...windowTopic.members]) keepListed(partition, memory, facts, rows);
  const told =
    windowed !== null && search.window !== null && timeRuleOn('toldOfWindow')
      ? await toldLater(
          deps,
          filter,
          search.window,
          { topical, poolFull: lexical.length >= candidateLimit, smallWindow: windowed.inWindow <= SMALL_WINDOW },
          facts,
          rows,
        )
      : null;
  const toldHits = told !== null && topical ? windowTopicHits(told.members, terms, lexical) : { hits: [], members: [] };
  if (windowed !== null && told !== null)
    windowed = {
      items: topical ? windowed.items : [...windowed.items, ...told.members],
      inWindow: windowed.inWindow + told.ids.size,
    };
  return {
    lexical: [...lexical, ...windowTopic.hits, ...toldHits.hits],
    vectorById,
    stats,
    windowed,
    toldOfWindow: told?.ids ?? new Set(),
    facts,
    vectorMethod: vector[0]?.method ?? null,
  };
}

/**
 * The memories recorded just before or after the window that tell of it (toldOfWindow.ts), with
 * their rows (kept in `rows`). A topical question whose pool was not cut holds every memory that
 * shares its words, so only its candidates recorded within reach of the window are read; a question
 * that is only a time, or whose full pool was cut, lists the memories from a month before a small
 * window to a month after it when they are few (SMALL_WINDOW both; one listing, the window's own
 * members among them, which toldOfWindow passes over), as the window's own topic members are read
 * (windowTopicMembers.ts): a store busy enough to hold more in the window holds more in the months
 * around it, and counting them would cost a scan of the filter (a few milliseconds at 100,000
 * memories) for nothing. Those that tell of the window get their facts in `facts` and their rows in
 * `rows`.
 */
async function toldLater(
  deps: StoreDeps,
  filter: MemoryFilter,
  window: TimeWindow,
  pool: { topical: boolean; poolFull: boolean; smallWindow: boolean },
  facts: Map<string, RankingFacts>,
  rows: CandidateRows,
): Promise<{ ids: Set<string>; members: MemoryRecord[] }> {
  const partition = filter.user_id;
  const reach = tellingReach(window);
  if (reach === null) return { ids: new Set(), members: [] };
  let read: MemoryRecord[] | null = null;
  if (pool.smallWindow && (!pool.topical || pool.poolFull)) {
    // Counted first (a count reads no rows), listed only when few.
    const recorded = (await windowMembers(deps, filter, reach, 0)).inWindow;
    if (recorded <= SMALL_WINDOW) read = (await windowMembers(deps, filter, reach, recorded)).items;
  }
  if (read === null) {
    const ids = recordedWithinReach(window, facts.values());
    read =
      ids.length === 0
        ? []
        : (await deps.store.getMemories(partition, ids)).filter((memory) => memory.deleted_at === null);
    // Candidates already: kept, so the stages that return them do not read their rows again.
    for (const memory of read) rows.keep(partition, memory);
  }
  const ids = toldOfWindow(window, read);
  const members = read.filter((memory) => ids.has(memory.memory_id));
  for (const memory of members) keepListed(partition, memory, facts, rows);
  return { ids, members };
}

/**
 * With a path, every memory anchored to it is a candidate, whether or not it shares the query's
 * words: their ids (facts added to `facts`, the listed rows to `rows`); none without a path.
 */
export async function requestedByPath(
  deps: StoreDeps,
  filter: MemoryFilter,
  search: RecallSearch,
  facts: Map<string, RankingFacts>,
  rows: CandidateRows,
): Promise<Set<string>> {
  const listed = search.byPath
    ? (await deps.store.listMemories({ filter, sort: 'recency', offset: 0, limit: search.candidateLimit })).items
    : [];
  for (const memory of listed) keepListed(filter.user_id, memory, facts, rows);
  return new Set(listed.map((memory) => memory.memory_id));
}

/** A listed memory: its facts made from the row the listing read, and the row kept for the answer. */
function keepListed(
  partition: string,
  memory: MemoryRecord,
  facts: Map<string, RankingFacts>,
  rows: CandidateRows,
): void {
  facts.set(memory.memory_id, rankingFactsOf(memory));
  rows.keep(partition, memory);
}

/** The memories of a window the query names, most recent first (at most `limit`), and how many happened in it. */
async function windowMembers(
  deps: StoreDeps,
  filter: MemoryFilter,
  window: TimeWindow,
  limit: number,
): Promise<WindowMembers> {
  const members = await deps.store.listMemories({
    filter: { ...filter, ...window },
    sort: 'recency',
    offset: 0,
    limit,
  });
  return { items: members.items, inWindow: members.total };
}
