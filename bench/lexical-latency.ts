/**
 * Search latency of LexicalIndex on a synthetic corpus: 100,000 documents of 8-40 words
 * drawn from a Zipf-distributed 50,000-word vocabulary (natural text is Zipfian, so common
 * terms have long postings as in real use). Queries are 3 terms mixing frequency ranks.
 *
 *   node bench/lexical-latency.ts [documents]
 */
import { performance } from 'node:perf_hooks';
import { LexicalIndex } from '../src/stores/common/lexicalIndex.ts';
import type { AnalyzedDocument } from '../src/core/text/analyzer.ts';

const DOCUMENTS = Number(process.argv[2] ?? 100_000);
const VOCABULARY = 50_000;
const QUERIES = 2_000;

let seed = 42;
function random(): number {
  seed = (seed * 1664525 + 1013904223) % 2 ** 32;
  return seed / 2 ** 32;
}

// Inverse-CDF sampling of a Zipf(s = 1) rank over the vocabulary.
const cumulative = new Float64Array(VOCABULARY);
let total = 0;
for (let rank = 0; rank < VOCABULARY; rank++) cumulative[rank] = total += 1 / (rank + 1);
function zipfRank(): number {
  const target = random() * total;
  let low = 0;
  let high = VOCABULARY - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cumulative[mid] < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

function syntheticDocument(): AnalyzedDocument {
  const terms = new Map<string, number>();
  const length = 8 + Math.floor(random() * 33);
  for (let i = 0; i < length; i++) {
    const term = `w${zipfRank()}`;
    terms.set(term, (terms.get(term) ?? 0) + 1);
  }
  return { terms, length };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const index = new LexicalIndex();
const buildStart = performance.now();
for (let i = 0; i < DOCUMENTS; i++) index.upsert(`m${i}`, syntheticDocument());
const buildMs = performance.now() - buildStart;

// Query terms at ranks 10-99 (common), 100-999 and 1000+ (rare): the common term's postings dominate the cost.
const queries = Array.from({ length: QUERIES }, () => [
  { term: `w${10 + Math.floor(random() * 90)}`, weight: 1 },
  { term: `w${100 + Math.floor(random() * 900)}`, weight: 1 },
  { term: `w${1000 + Math.floor(random() * 9000)}`, weight: 1 },
]);
for (const query of queries.slice(0, 200)) index.search(query, 10);

const timings: number[] = [];
let filteredHits = 0;
for (const query of queries) {
  const start = performance.now();
  index.search(query, 10);
  timings.push(performance.now() - start);
}
const filtered: number[] = [];
for (const query of queries) {
  const start = performance.now();
  filteredHits += index.search(query, 10, (id) => id.endsWith('7')).length;
  filtered.push(performance.now() - start);
}
timings.sort((a, b) => a - b);
filtered.sort((a, b) => a - b);

const format = (values: number[]) => [50, 95, 99].map((p) => `p${p} ${percentile(values, p).toFixed(3)} ms`).join(', ');
const { averageLength } = index.stats();
console.log(
  `index: ${index.size} docs, avg length ${averageLength.toFixed(1)}, built in ${(buildMs / 1000).toFixed(1)} s`,
);
console.log(`search top-10, 3 terms (${QUERIES} queries): ${format(timings)}`);
console.log(`search top-10 with a 10% row filter: ${format(filtered)} (${filteredHits} hits)`);
const upsertStart = performance.now();
for (let i = 0; i < 1000; i++) index.upsert(`m${i}`, syntheticDocument());
console.log(`re-upsert of an existing doc: ${((performance.now() - upsertStart) / 1000).toFixed(3)} ms mean`);

// Worst case: the three most frequent terms (stop-word-like, in most documents).
const worst: number[] = [];
const heavy = [0, 1, 2].map((rank) => ({ term: `w${rank}`, weight: 1 }));
for (let i = 0; i < 200; i++) {
  const start = performance.now();
  index.search(heavy, 10);
  worst.push(performance.now() - start);
}
worst.sort((a, b) => a - b);
const postings = heavy.map(({ term }) => index.documentFrequency(term)).join(' + ');
console.log(`worst case, 3 most frequent terms (${postings} postings): ${format(worst)}`);
