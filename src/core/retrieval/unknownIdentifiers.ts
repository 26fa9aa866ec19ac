/**
 * A whole identifier no memory has (issue 30). The analyzer searches an identifier both whole
 * ("golang-migrate", "service-to-service", "ModuleNotFoundError") and by its parts, the whole
 * weighing more: it is the most specific evidence when a memory writes it. When no memory of the
 * user writes it, no memory can cover it, and as a word no memory has it weighed the most of the
 * question (queryCoverage.ts): a memory that writes the same thing another way ("go-migrate",
 * "between services") could cover its parts only, a third of the question. The parts are what
 * such a question can be matched on, so an unknown whole counts for nothing in the coverage when
 * the memories have every one of its parts: the store writes the same thing apart. A whole with a
 * part no memory has ("finance-api" where nothing says "finance", "GraphQL" where nothing says
 * "graph") names something never stored and keeps its weight, as does a whole some memory writes.
 * No list: the store's document counts, read for the coverage anyway, decide.
 */
import type { TermStatistics } from '../ports/memoryStore.ts';
import { termOf } from '../text/analyzer.ts';
import { tokenizeDetailed } from '../text/tokenizer.ts';
import type { SharedQueryConcept } from './queryConcepts.ts';

/**
 * The identifiers written whole in the texts ("golang-migrate", "configuration.yaml"), each index
 * term with the index terms of its parts.
 */
export function identifierWholesOf(texts: readonly string[]): Map<string, string[]> {
  const wholes = new Map<string, string[]>();
  for (const text of texts) {
    let parts: string[] | null = null;
    for (const token of tokenizeDetailed(text)) {
      const term = termOf(token);
      if (token.kind === 'whole') {
        parts = null;
        if (term !== null) {
          parts = [];
          wholes.set(term, parts);
        }
      } else if (token.kind === 'part') {
        if (parts !== null && term !== null) parts.push(term);
      } else parts = null;
    }
  }
  return wholes;
}

let unknownWholesOn = true;

/**
 * For held-out checks only (bench/coding/projectHoldout.ts): turns the rule off and on so a check
 * can measure it per project. Nothing in the product calls it.
 */
export function unknownWholesForEvaluation(on: boolean): void {
  unknownWholesOn = on;
}

/**
 * The concepts with every whole identifier no memory has, each of whose parts some memory has, at
 * weight 0 (it counts for no coverage).
 */
export function withoutUnknownWholes(
  concepts: readonly SharedQueryConcept[],
  stats: TermStatistics,
  wholes: ReadonlyMap<string, readonly string[]>,
): SharedQueryConcept[] {
  if (!unknownWholesOn) return [...concepts];
  const known = (term: string): boolean => (stats.frequencies.get(term) ?? 0) > 0;
  return concepts.map((concept) => {
    const parts = wholes.get(concept.term);
    return parts !== undefined && !known(concept.term) && parts.length > 0 && parts.every(known)
      ? { ...concept, weight: 0 }
      : concept;
  });
}
