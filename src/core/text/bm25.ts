/**
 * BM25's inverse document frequency, shared by the stores' lexical indexes (which score with it)
 * and the core's query coverage (which weighs a query's words by it), so both agree on what a
 * rare word is worth.
 */

/** Lucene's BM25 idf: always positive, so a term in most documents still helps a little. */
export function bm25Idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
