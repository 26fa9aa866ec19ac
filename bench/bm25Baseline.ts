/**
 * The plain BM25 every set's README compares with (k1 0.9, b 0.4, the analyzer's light stemming and
 * stop words, no vocabulary, no floor): the ranking, and for never-stored / near-miss questions how
 * many documents share a word with the question (what a search without a floor returns, up to the
 * default limit).
 */
import { analyzeDocument, analyzeQuery } from '../src/core/text/analyzer.ts';
import { LexicalIndex } from '../src/stores/common/lexicalIndex.ts';

/** recall_memories' default limit: what a floorless search returns at most. */
export const DEFAULT_LIMIT = 10;

export class Bm25Baseline {
  private readonly index = new LexicalIndex({ k1: 0.9, b: 0.4 });

  add(id: string, text: string): void {
    this.index.upsert(id, analyzeDocument({ content: text, entities: [], tags: [] }));
  }

  rank(question: string, limit: number): string[] {
    return this.index.search(analyzeQuery(question), limit).map((hit) => hit.memory_id);
  }

  /** How many results a floorless BM25 returns for a question (at most DEFAULT_LIMIT). */
  returned(question: string): number {
    return this.rank(question, DEFAULT_LIMIT).length;
  }
}
