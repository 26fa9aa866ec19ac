/**
 * The absolute text-match scale: how much of the query's informative content a memory covers.
 * Each query concept counts by its IDF (a word most memories share says little; a word no memory
 * has says the most) times its query weight; a memory covers a concept fully with the word itself
 * and partly through an alternative (queryConcepts.ts). So one common word cannot score like a
 * full match, and a question about something never stored scores low against every memory.
 */
import type { TermStatistics } from '../ports/memoryStore.ts';
import { bm25Idf } from '../text/bm25.ts';
import type { SharedConceptAlternative, SharedQueryConcept } from './queryConcepts.ts';
import { partCredit } from './wordParts.ts';

export interface Coverage {
  /** Share of the query's information the memory carries, in [0, 1]. */
  value: number;
  /** The bridges that carried a concept the memory does not name itself ("database ← postgresql"). */
  bridges: string[];
}

/**
 * How much a generic word ("use", "make", "set") counts against its IDF: it is rare in a small
 * store and still says little about what a question is about.
 */
export const GENERIC_WORD_INFORMATION = 0.5;

/**
 * The why_matched label of an alternative a memory has, or null: all of its terms, or for a class
 * any one member ("programming language ← kotlin").
 */
export function alternativeMatch(
  alternative: SharedConceptAlternative,
  memoryTerms: ReadonlySet<string>,
): string | null {
  const { members } = alternative;
  if (members === undefined) return alternative.terms.every((term) => memoryTerms.has(term)) ? alternative.label : null;
  for (const term of memoryTerms) {
    const name = members.get(term);
    if (name !== undefined) return `${alternative.label} ← ${name}`;
  }
  return null;
}

/** Information of each concept: its own word's IDF in this user's memories, times its query weight. */
export function conceptInformation(concepts: readonly SharedQueryConcept[], stats: TermStatistics): number[] {
  return concepts.map(
    (concept) =>
      concept.weight *
      (concept.generic ? GENERIC_WORD_INFORMATION : 1) *
      bm25Idf(stats.documents, stats.frequencies.get(concept.term) ?? 0),
  );
}

/**
 * `parts`: the query words the memory holds inside a longer word of its own, with that word
 * (wordParts.ts); each covers its concept at PART_CREDIT when no bridge covers it more.
 */
export function coverageOf(
  concepts: readonly SharedQueryConcept[],
  information: readonly number[],
  memoryTerms: ReadonlySet<string>,
  parts: ReadonlyMap<string, string> = new Map(),
): Coverage {
  let total = 0;
  let covered = 0;
  const bridges: string[] = [];
  concepts.forEach((concept, index) => {
    const weight = information[index];
    total += weight;
    if (memoryTerms.has(concept.term)) {
      covered += weight;
      return;
    }
    // Alternatives are sorted strongest first: the first one the memory has is its best.
    let bridge: { credit: number; label: string } | null = null;
    // Indexed: run for every candidate and concept, and no iterator result for each when unoptimised.
    for (let at = 0; at < concept.alternatives.length; at++) {
      const alternative = concept.alternatives[at];
      const label = alternativeMatch(alternative, memoryTerms);
      if (label !== null) {
        bridge = { credit: alternative.credit, label };
        break;
      }
    }
    const holder = parts.get(concept.term);
    if (holder !== undefined && (!bridge || bridge.credit < partCredit())) {
      covered += weight * partCredit();
      bridges.push(`${concept.term} in ${holder}`);
    } else if (bridge) {
      covered += weight * bridge.credit;
      bridges.push(bridge.label);
    }
  });
  // Called for every hit and query variant: a list of one or none has nothing to deduplicate.
  return {
    value: total > 0 ? Math.min(1, covered / total) : 0,
    bridges: bridges.length > 1 ? [...new Set(bridges)] : bridges,
  };
}

/** The query names something beyond generic words in any form ("what happened", "what did we do"). */
export function hasTopic(concepts: readonly SharedQueryConcept[]): boolean {
  return concepts.some((concept) => concept.topical);
}

/** The memory covers at least one of the query's topical concepts, itself or through a bridge. */
export function coversTopic(concepts: readonly SharedQueryConcept[], memoryTerms: ReadonlySet<string>): boolean {
  return concepts.some(
    (concept) =>
      concept.topical &&
      (memoryTerms.has(concept.term) ||
        concept.alternatives.some((alternative) => alternativeMatch(alternative, memoryTerms) !== null)),
  );
}
