import type { WeightedTerm } from '../ports/memoryStore.ts';
import { searchKeysOf } from './searchKeys.ts';
import { stem } from './stemmer.ts';
import { isStopWord } from './stopwords.ts';
import { tokenizeDetailed } from './tokenizer.ts';
import type { Token, TokenKind } from './tokenizer.ts';

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

/** A text's tokens that carry a term, in order: each one's term and kind (what addField and analyzeQuery read). */
interface TermRun {
  terms: string[];
  kinds: TokenKind[];
}

function termRunOf(text: string): TermRun {
  const run: TermRun = { terms: [], kinds: [] };
  for (const token of tokenizeDetailed(text)) {
    const term = termOf(token);
    if (term === null) continue;
    run.terms.push(term);
    run.kinds.push(token.kind);
  }
  return run;
}

/** addField over a run taken before: the same terms, in the same order, and the same length. */
function addRun(run: TermRun, weight: number, terms: Map<string, number>): number {
  let length = 0;
  for (let index = 0; index < run.terms.length; index++) {
    const term = run.terms[index];
    terms.set(term, (terms.get(term) ?? 0) + weight);
    if (run.kinds[index] !== 'whole') length += weight;
  }
  return length;
}

/**
 * Runs of texts a store analysed as a query (its duplicate search's terms) that its index entry
 * (analyzeDocument of the same content) has not taken yet: the text is tokenized and stemmed
 * once per store, not twice. Bounded, oldest first out: a store that merged into a duplicate
 * never takes its run. Both analyses are pure functions of the text, so a run found here is what
 * analysing the text again would give.
 */
const HANDED_OVER_RUNS = 64;
const handedOver = new Map<string, TermRun>();

/**
 * analyzeQuery, keeping the text's run for the analyzeDocument of the same content that follows
 * (a memory being stored: its duplicate-search terms first, its index entry on insert).
 */
export function analyzeQueryOfContent(text: string): WeightedTerm[] {
  const run = termRunOf(text);
  if (handedOver.size >= HANDED_OVER_RUNS) handedOver.delete(handedOver.keys().next().value!);
  handedOver.set(text, run);
  const weights = new Map<string, number>();
  for (let index = 0; index < run.terms.length; index++) {
    const term = run.terms[index];
    weights.set(term, (weights.get(term) ?? 0) + QUERY_KIND_WEIGHTS[run.kinds[index]]);
  }
  return weightedTerms(weights);
}

/** The run analyzeQueryOfContent kept for `text`, taken out (each is used once), or undefined. */
function takeHandedOver(text: string): TermRun | undefined {
  if (handedOver.size === 0) return undefined;
  const run = handedOver.get(text);
  if (run !== undefined) handedOver.delete(text);
  return run;
}

export function analyzeDocument(doc: {
  content: string;
  entities: readonly string[];
  tags: readonly string[];
  summary?: string | null;
  metadata?: Readonly<Record<string, unknown>>;
}): AnalyzedDocument {
  const terms = new Map<string, number>();
  const run = takeHandedOver(doc.content);
  let length =
    run === undefined ? addField(doc.content, FIELD_WEIGHTS.content, terms) : addRun(run, FIELD_WEIGHTS.content, terms);
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
