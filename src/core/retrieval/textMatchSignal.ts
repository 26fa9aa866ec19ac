/**
 * The text-match signal on its absolute scale: the share of the query's information each lexical
 * candidate covers (queryCoverage.ts), with BM25 ordering memories of equal coverage. A calendar
 * window the query names is one more concept (timeWindow.ts); an alternate query's coverage counts
 * ALTERNATE_QUERY_CREDIT of the query's own; the name of the project the question is scoped to is
 * not a topic (namedScope.ts); an identifier no memory writes whole, whose parts the memories have,
 * counts through its parts only (unknownIdentifiers.ts); a query word a memory holds inside a longer
 * word of its own counts at a synonym's credit (wordParts.ts).
 */
import type { LexicalHit } from '../ports/memoryStore.ts';
import type { Candidates } from './candidateGathering.ts';
import { unknownWordSplitsOnly } from './compoundWords.ts';
import type { SharedQueryConcept } from './queryConcepts.ts';
import {
  conceptInformation,
  coverageOf,
  coversTopic,
  GENERIC_WORD_INFORMATION,
  hasTopic,
  type Coverage,
} from './queryCoverage.ts';
import type { RecallSearch } from './recallSearch.ts';
import { withoutUnknownWholes } from './unknownIdentifiers.ts';
import { partsOf } from './wordParts.ts';
import { focusTerms } from './questionFocus.ts';
import { timeRuleOn } from './timeRuleSwitches.ts';
import { happenedWithin, IN_WINDOW_TERM, windowConcept, windowInformation } from './timeWindow.ts';

/**
 * Share of the text score that orders memories of equal coverage by BM25 (term frequency, length).
 * Relative to the call's best hit, but bounded: it can only lower a memory's coverage by this share.
 */
const BM25_SHARE = 0.25;
/** An alternate query's match counts this much of the main query's: the agent's guess, not the user's words. */
const ALTERNATE_QUERY_CREDIT = 0.9;

export interface TextMatches {
  /** Every text candidate with its text score in [0, 1], best first. */
  hits: LexicalHit[];
  /** Each candidate's coverage, for the bridges why_matched names. */
  coverageById: Map<string, Coverage>;
  /** Candidates that cover the calendar window the query names (signal "time"). */
  coveredWindow: Set<string>;
}

/** `nameTerms`: the words of the project name the question is scoped to, which count for no memory's coverage. */
export function textMatches(
  search: RecallSearch,
  candidates: Pick<Candidates, 'lexical' | 'stats' | 'windowed' | 'facts' | 'toldOfWindow'>,
  nameTerms: ReadonlySet<string>,
): TextMatches {
  const { lexical, stats, windowed, facts } = candidates;
  const variants = search.variants.map((concepts) =>
    withoutUnknownWholes(unknownWordSplitsOnly(concepts, stats), stats, search.identifierWholes),
  );
  const topical = hasTopic(variants[0]);
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
  const information = variants.map((concepts) => {
    const values = conceptInformation(concepts, stats);
    const topic = values.map((value, index) => (nameTerms.has(concepts[index].term) ? 0 : value));
    return topic.some((value, index) => value > 0 && concepts[index].topical) ? topic : values;
  });
  // A question naming a time the memories hold asks what happened then: the words of its focus
  // ("What dish did …", "Which country was …") name the kind of answer, which the memory of that
  // time names by an instance ("coconut ice cream", "the UK"): they count as a generic word does.
  if (counted && timeRuleOn('questionFocus')) {
    const focus = focusTerms(search.query);
    if (focus.size > 0)
      information[0] = information[0].map((value, index) =>
        index < variants[0].length && focus.has(variants[0][index].term) ? value * GENERIC_WORD_INFORMATION : value,
      );
  }
  if (counted) {
    const topic = information[0].reduce((sum, value) => sum + value, 0);
    // Over the user's memories, as the words' IDFs (a question that is only a time has none: the window is all of it).
    const window = windowInformation(windowed.inWindow, Math.max(stats.documents, windowed.inWindow));
    information[0] = topical ? [...information[0], Math.min(window, topic)] : [window];
  }
  const inWindow = (id: string): boolean => {
    const memory = facts.get(id);
    return (
      search.window !== null &&
      memory !== undefined &&
      (happenedWithin(memory.happened_ms, search.window.after, search.window.before) || candidates.toldOfWindow.has(id))
    );
  };
  const topBm25 = lexical.reduce((max, hit) => Math.max(max, hit.score), 0);
  const coverageById = new Map<string, Coverage>();
  const coveredWindow = new Set<string>();
  const lexicalIds = new Set(lexical.map((hit) => hit.memory_id));
  // The window's memories the words did not find cover the window alone.
  const textHits: LexicalHit[] = [
    ...lexical,
    ...(windowed?.items ?? [])
      .filter((memory) => !lexicalIds.has(memory.memory_id))
      .map((memory) => ({ memory_id: memory.memory_id, score: 0, matched_terms: [] })),
  ];
  const hits: LexicalHit[] = textHits.map((hit) => {
    const terms = new Set(hit.matched_terms);
    // The window qualifies the topic: a memory of that time about nothing asked of is not an answer.
    if (counted && inWindow(hit.memory_id) && (!topical || coversTopic(variants[0], terms))) {
      terms.add(IN_WINDOW_TERM);
      coveredWindow.add(hit.memory_id);
    }
    const coverage = bestCoverage(covered, information, terms, partsOf(hit.part_matches));
    coverageById.set(hit.memory_id, coverage);
    const bm25 = topBm25 > 0 ? hit.score / topBm25 : 0;
    return {
      memory_id: hit.memory_id,
      score: coverage.value * (1 - BM25_SHARE + BM25_SHARE * bm25),
      matched_terms: hit.matched_terms,
    };
  });
  hits.sort((a, b) => b.score - a.score);
  return { hits, coverageById, coveredWindow };
}

/** The best coverage of a memory over the query and its alternates (an alternate's counts ALTERNATE_QUERY_CREDIT). */
function bestCoverage(
  variants: ReadonlyArray<readonly SharedQueryConcept[]>,
  information: readonly number[][],
  memoryTerms: ReadonlySet<string>,
  parts: ReadonlyMap<string, string>,
): Coverage {
  let best: Coverage = { value: 0, bridges: [] };
  variants.forEach((concepts, index) => {
    const found = coverageOf(concepts, information[index], memoryTerms, parts);
    const value = found.value * (index === 0 ? 1 : ALTERNATE_QUERY_CREDIT);
    if (value > best.value)
      best = { value, bridges: index === 0 ? found.bridges : [...found.bridges, 'alternate query'] };
  });
  return best;
}
