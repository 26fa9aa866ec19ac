/**
 * Pseudo-relevance feedback without a second search (issue 30, paraphrase without a model): the
 * stored statements the first ranking puts highest vote for the other words of their topic (the
 * relevance model of RM3, Lavrenko & Croft; 3 documents, 10 terms, λ 0.3 as in Anserini's
 * defaults), and the candidates the search already fetched are reordered by how much of that
 * vocabulary they share. A memory that says the same thing in other words shares the topic's
 * vocabulary with the best matches even where it misses the question's own words.
 *
 * Cheap on purpose: no store search is added, only the document counts of at most a few dozen
 * terms; the records are those recall fetched anyway, and only the first FEEDBACK_DEPTH statements are read again. (A version with a second lexical search
 * doubled recall's p99 at 100,000 memories: docs/retrieval.md.) Only stored statements vote and
 * are reordered, never dialog turns: a turn of chat carries its conversation's words more than
 * its topic's (with turns voting, LoCoMo lost 0.8 points of R@10).
 *
 * Feedback reorders only: the words it adds are not the question's, so they count for no memory's
 * coverage, never lift a memory over the relevance floor (recall compares the floor with the
 * score before feedback), nor appear in why_matched.
 */

/** How many of the best-ranked statements vote. In a store of many small topics the fourth on is mostly another topic's. */
export const FEEDBACK_DOCUMENTS = 3;
/**
 * How many of the best-ranked statements feedback reorders (the voters among them). Each is analysed
 * again (tens of microseconds apiece), so the depth is what feedback costs; a paraphrase it lifts
 * into the top five was in the top ten already on both coding sets.
 */
export const FEEDBACK_DEPTH = 10;
/** How many of the voted words are kept. */
export const FEEDBACK_TERMS = 10;
/** Share of the BM25 tie-break that the agreement with the feedback words takes. */
export const FEEDBACK_LAMBDA = 0.3;
/** A word in most memories carries no evidence of a topic. */
const MIN_FEEDBACK_IDF = 0.5;

/** A document's analysed terms (term -> weighted frequency) and its length. */
export interface AnalysedTerms {
  terms: ReadonlyMap<string, number>;
  length: number;
}

/** The relevance model of the voters over the words the question does not have: term -> weight. */
export function relevanceModel(
  voters: ReadonlyArray<{ score: number; document: AnalysedTerms }>,
  questionTerms: ReadonlySet<string>,
): Map<string, number> {
  const mass = voters.reduce((sum, voter) => sum + voter.score, 0);
  const model = new Map<string, number>();
  if (mass <= 0) return model;
  for (const { score, document } of voters) {
    if (document.length <= 0) continue;
    const share = score / mass;
    for (const [term, tf] of document.terms)
      if (!questionTerms.has(term)) model.set(term, (model.get(term) ?? 0) + (share * tf) / document.length);
  }
  return model;
}

/** The model's strongest informative words, each with its weight, strongest first. */
export function feedbackWords(
  model: ReadonlyMap<string, number>,
  idf: (term: string) => number,
  count = FEEDBACK_TERMS,
): Array<[string, number]> {
  return [...model]
    .filter(([term]) => idf(term) > MIN_FEEDBACK_IDF)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count);
}

/** How much of the feedback words' weight a document carries, in [0, 1]. */
export function feedbackAgreement(document: AnalysedTerms, words: ReadonlyArray<[string, number]>): number {
  const total = words.reduce((sum, [, weight]) => sum + weight, 0);
  if (total <= 0) return 0;
  let shared = 0;
  for (const [term, weight] of words) if (document.terms.has(term)) shared += weight;
  return shared / total;
}

/** The BM25 tie-break with feedback: BM25 relative to the best hit, blended with the agreement. */
export function withFeedback(relativeBm25: number, agreement: number): number {
  return (1 - FEEDBACK_LAMBDA) * relativeBm25 + FEEDBACK_LAMBDA * agreement;
}
