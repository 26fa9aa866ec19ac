/**
 * A calendar window the query names ("in May 2023", "last week", "yesterday") is part of what it
 * asks, so it is one more concept of the query's coverage (queryCoverage.ts), which a memory covers
 * when it happened inside the window. It weighs what a word would: the BM25 IDF of "happened in the
 * window" over the memories searched, so a window holding most memories says little and a day
 * holding three says much. A question that is only a window ("what happened last week?") is then
 * answered by the window's memories, most recent first, not by whichever memories share the words
 * "what" and "happened"; a question with a topic too ranks the topic's memories of the window first
 * and the rest of the window and the topic's memories of other days after them, each as the partial
 * answer it is. A vague time ("two weeks ago") names no window and only boosts memories near it.
 */
import { bm25Idf } from '../text/bm25.ts';
import type { QueryConcept } from './queryConcepts.ts';

export interface TimeWindow {
  /** Inclusive ISO bounds, compared with a memory's event_time, else its created_at. */
  after?: string;
  before?: string;
}

/** The window's concept term: never an index term, which the analyzer makes of letters and digits only. */
export const IN_WINDOW_TERM = '\u0000in the time asked about';

export function windowConcept(): QueryConcept {
  return { term: IN_WINDOW_TERM, weight: 1, generic: false, topical: true, alternatives: [] };
}

/** The window's information, as a word's: its IDF among the `searched` memories, `inWindow` of which happened in it. */
export function windowInformation(inWindow: number, searched: number): number {
  return bm25Idf(searched, inWindow);
}

/**
 * When the memory happened (event_time, else when it was stored; RankingFacts.happened_ms) is inside
 * [after, before]. Compared as instants: every stored time and every bound is a canonical ISO string
 * (parseIsoTimestamp, toISOString), whose string order is its time order.
 */
export function happenedWithin(happenedMs: number, after: string | undefined, before: string | undefined): boolean {
  return (
    (after === undefined || happenedMs >= Date.parse(after)) &&
    (before === undefined || happenedMs <= Date.parse(before))
  );
}
