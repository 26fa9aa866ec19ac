import type { WeightedTerm } from '../ports/memoryStore.ts';
import { searchKeysOf } from './searchKeys.ts';
import { stem } from './stemmer.ts';
import { isStopWord } from './stopwords.ts';
import { tokenizeDetailed } from './tokenizer.ts';
import type { Token } from './tokenizer.ts';

/** Bump whenever analyzeDocument/analyzeQuery output changes: stores re-index on change. */
export const ANALYZER_VERSION = 1;

export interface AnalyzedDocument {
  /** term -> field-weighted term frequency (BM25F: sum over fields of field weight x tf in field). */
  terms: Map<string, number>;
  /** Field-weighted token count used for BM25 length normalisation. */
  length: number;
}

/**
 * BM25F field weights. Entities and tags are curated labels, so one mention there says
 * more about the memory than one word of prose; the summary restates the content, so it
 * counts less to avoid double-counting the same words. Search keys (searchKeys.ts) are guesses at
 * how someone may ask, not what the memory says, so they count least.
 */
export const FIELD_WEIGHTS = { content: 1, summary: 0.5, entities: 2, tags: 1.5, searchKeys: 0.5 } as const;

/**
 * Query weights by token kind. A whole identifier is the most specific evidence; its parts
 * still help ("user id" finds getUserById) but must not outweigh the exact identifier.
 */
const QUERY_KIND_WEIGHTS = { word: 1, whole: 1.5, part: 0.5 } as const;

export function tokenize(text: string): string[] {
  return tokenizeDetailed(text).map((token) => token.text);
}

/** The index term of a token, or null when it carries no topic. Wholes are exact, so never stemmed. */
export function termOf(token: Token): string | null {
  if (token.kind === 'whole') return token.text;
  if (isStopWord(token.text)) return null;
  if (token.kind === 'part' && token.text.length < 2 && !/\d/u.test(token.text)) return null;
  return stem(token.text);
}

/**
 * Adds one field's terms and returns its length. Stop words do not count (as in Lucene);
 * identifier wholes add a term but no length, since their parts already count.
 */
function addField(text: string, weight: number, terms: Map<string, number>): number {
  let length = 0;
  for (const token of tokenizeDetailed(text)) {
    const term = termOf(token);
    if (term === null) continue;
    terms.set(term, (terms.get(term) ?? 0) + weight);
    if (token.kind !== 'whole') length += weight;
  }
  return length;
}

export function analyzeDocument(doc: {
  content: string;
  entities: readonly string[];
  tags: readonly string[];
  summary?: string | null;
  metadata?: Readonly<Record<string, unknown>>;
}): AnalyzedDocument {
  const terms = new Map<string, number>();
  let length = addField(doc.content, FIELD_WEIGHTS.content, terms);
  if (doc.summary) length += addField(doc.summary, FIELD_WEIGHTS.summary, terms);
  for (const entity of doc.entities) length += addField(entity, FIELD_WEIGHTS.entities, terms);
  for (const tag of doc.tags) length += addField(tag, FIELD_WEIGHTS.tags, terms);
  for (const key of searchKeysOf(doc.metadata)) length += addField(key, FIELD_WEIGHTS.searchKeys, terms);
  return { terms, length };
}

/** Deduplicated query terms; a term seen several times keeps the sum of its weights. */
export function analyzeQuery(text: string): WeightedTerm[] {
  const weights = new Map<string, number>();
  for (const token of tokenizeDetailed(text)) {
    const term = termOf(token);
    if (term === null) continue;
    weights.set(term, (weights.get(term) ?? 0) + QUERY_KIND_WEIGHTS[token.kind]);
  }
  return weightedTerms(weights);
}

/**
 * The entries of a term → weight map as weighted terms, in insertion order. Through forEach: no
 * [term, weight] pair per entry and no intermediate array, which a spread of the map would allocate.
 */
export function weightedTerms(weights: ReadonlyMap<string, number>): WeightedTerm[] {
  const out: WeightedTerm[] = [];
  weights.forEach((weight, term) => {
    out.push({ term, weight });
  });
  return out;
}
