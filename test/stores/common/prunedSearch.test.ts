import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WeightedTerm } from '../../../src/core/ports/memoryStore.ts';
import { LexicalIndex, type LexicalSearchHit } from '../../../src/stores/common/lexicalIndex.ts';

/**
 * The pruned search (maxScore.ts) against the exhaustive one on random indexes: the same hits in
 * the same order, the same scores bit for bit, the same matched terms, the same questions to the
 * filter in the same order, the same error when it throws, and clean scratch cells after it.
 */

function randomSource(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A word drawn with a Zipf-like skew, so some postings are long and most are short, as in real text. */
function word(random: () => number, vocabulary: number): string {
  return `w${Math.floor(vocabulary ** random()) - 1}`;
}

/**
 * A document of random words, frequencies on the analyzer's half grid, a length that is not always
 * its word count; or, when `flat`, every frequency 1 and every length 6, so that each term's bound
 * is exactly what it adds to each of its documents and a bound any tighter drops a hit.
 */
function randomDocument(
  random: () => number,
  vocabulary: number,
  flat: boolean,
): { terms: Map<string, number>; length: number } {
  const terms = new Map<string, number>();
  const count = 1 + Math.floor(random() * 12);
  for (let i = 0; i < count; i++) {
    const term = word(random, vocabulary);
    if (flat) terms.set(term, 1);
    else terms.set(term, (terms.get(term) ?? 0) + (1 + Math.floor(random() * 4)) / 2);
  }
  const length = flat ? 6 : random() < 0.3 ? count : Math.round(random() * 40) / 2;
  return { terms, length };
}

interface RandomIndex {
  index: LexicalIndex;
  vocabulary: number;
  /** `steps` random writes and removals; `flat` false writes documents a flat index's bounds do not cover. */
  edit: (steps: number, flat: boolean) => void;
}

/**
 * An index of random documents with rewrites and removals, some written twice under two ids (ties
 * to the one stored first), and, for every other seed, saved and loaded (fromDocuments) then
 * edited again, as a persisted index is. Every third is flat (randomDocument).
 */
function randomIndex(seed: number): RandomIndex {
  const random = randomSource(seed);
  const vocabulary = 20 + Math.floor(random() * 200);
  const ids = 40 + Math.floor(random() * 400);
  const flat = seed % 3 === 0;
  let index = new LexicalIndex(seed % 5 === 0 ? { k1: 1.2, b: 0.75 } : undefined);
  let onlyAdds = false;
  let added = 0;
  const edit = (steps: number, flatDocuments: boolean): void => {
    for (let step = 0; step < steps; step++) {
      if (onlyAdds && index.size > 0) {
        index.upsert(`new${added++}`, randomDocument(random, vocabulary, flatDocuments));
        continue;
      }
      const id = `d${Math.floor(random() * ids)}`;
      const roll = random();
      if (roll < 0.15) index.remove(id);
      else if (roll < 0.25 && index.size > 0) {
        // Two ids with the same document: the same score, so the order of storing decides.
        const twin = randomDocument(random, vocabulary, flatDocuments);
        index.upsert(id, twin);
        index.upsert(`${id}-twin`, twin);
      } else index.upsert(id, randomDocument(random, vocabulary, flatDocuments));
    }
  };
  edit(ids * 2, flat);
  if (seed % 2 === 1) {
    index = LexicalIndex.fromDocuments(index.exportDocuments(), index.options);
    index.prunedSearchFrom = 0;
    // Every fourth seed's loaded index only gains documents: none is removed or rewritten, so the
    // loaded ones stay out of the per-document copy and a search scores them from the postings.
    onlyAdds = seed % 4 === 3;
    // A search before the edits measures bounds the edits then raise (or leave, for removals).
    index.search(
      [
        { term: 'w0', weight: 1 },
        { term: 'w1', weight: 1 },
        { term: 'w2', weight: 1 },
      ],
      3,
    );
    edit(ids, flat);
  }
  index.prunedSearchFrom = 0;
  return { index, vocabulary, edit };
}

/** A weighted query: repeated words, words no document has, weights from a tenth to 2, some zero or negative, up to 60 terms. */
function randomQuery(random: () => number, vocabulary: number): WeightedTerm[] {
  const count = 1 + Math.floor(random() ** 2 * 60);
  const terms: WeightedTerm[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    const term = roll < 0.1 ? `missing${i}` : roll < 0.2 && terms.length > 0 ? terms[0].term : word(random, vocabulary);
    const weightRoll = random();
    const weight = weightRoll < 0.05 ? 0 : weightRoll < 0.08 ? -1 : weightRoll < 0.5 ? 1 : 0.1 + random() * 1.9;
    terms.push({ term, weight });
  }
  return terms;
}

type Filter = { name: string; make: () => { accept: ((id: string) => boolean) | undefined; asked: string[] } };

const FILTERS: Filter[] = [
  { name: 'none', make: () => ({ accept: undefined, asked: [] }) },
  {
    name: 'takes all',
    make: () => {
      const asked: string[] = [];
      return { accept: (id) => (asked.push(id), true), asked };
    },
  },
  {
    name: 'refuses some',
    make: () => {
      const asked: string[] = [];
      return { accept: (id) => (asked.push(id), !id.endsWith('3') && !id.endsWith('twin')), asked };
    },
  },
  {
    name: 'throws',
    make: () => {
      const asked: string[] = [];
      return {
        accept: (id) => {
          asked.push(id);
          if (asked.length === 3) throw new Error('filter failed');
          return true;
        },
        asked,
      };
    },
  },
];

function outcome(run: () => LexicalSearchHit[]): LexicalSearchHit[] | string {
  try {
    return run();
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

/** Compares the two searches on `seeds` random indexes; returns how many searches were pruned. */
function comparePrunedWithExhaustive(seeds: number): number {
  let pruned = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const { index, vocabulary, edit } = randomIndex(seed);
    const random = randomSource(seed * 7919);
    for (let round = 0; round < 30; round++) {
      // Writes between searches: the bounds the searches measured must be raised by them.
      if (round % 3 === 2) edit(3, round < 15);
      const query = randomQuery(random, vocabulary);
      const limit = 1 + Math.floor(random() ** 2 * (index.size + 5));
      const filter = FILTERS[round % FILTERS.length];
      const reference = filter.make();
      const expected = outcome(() => index.searchExhaustive(query, limit, reference.accept));
      const before = index.searchWork.pruned;
      const tried = filter.make();
      const actual = outcome(() => index.search(query, limit, tried.accept));
      pruned += index.searchWork.pruned - before;
      const where = `seed ${seed}, round ${round}, ${query.length} terms, limit ${limit}, filter ${filter.name}`;
      assert.deepStrictEqual(actual, expected, where);
      assert.deepStrictEqual(tried.asked, reference.asked, `${where}: the filter's questions`);
      // After a search that threw, the scratch cells are clean: an unfiltered search agrees too.
      assert.deepStrictEqual(index.search(query, limit), index.searchExhaustive(query, limit), `${where}: after`);
    }
  }
  return pruned;
}

test('the pruned search returns the hits of the exhaustive search, scores, terms and filter questions', () => {
  const pruned = comparePrunedWithExhaustive(40);
  // Most searches have two searched terms and more matches than the limit: pruning ran, not the fallback.
  assert.ok(pruned > 400, `only ${pruned} searches were pruned`);
});

test('a pruned search reads fewer posting cells into the scores than the exhaustive one', () => {
  const { index } = randomIndex(2);
  // Four rarer words as asked, the commonest words as low-weight expansions: most cells are theirs.
  const query = Array.from({ length: 40 }, (_, at) => ({ term: `w${at}`, weight: at >= 36 ? 1 : 0.05 }));
  const before = { ...index.searchWork };
  const hits = index.search(query, 5);
  assert.equal(index.searchWork.pruned - before.pruned, 1);
  const pass = index.searchWork.scannedCells - before.scannedCells;
  const all = index.searchWork.survivorCells - before.survivorCells;
  assert.deepStrictEqual(hits, index.searchExhaustive(query, 5));
  assert.ok(pass < all / 2, `the first pass read ${pass} of ${all} cells`);
});

test('a search over fewer cells than prunedSearchFrom is not pruned', () => {
  const { index } = randomIndex(4);
  index.prunedSearchFrom = Infinity;
  index.search(
    [
      { term: 'w0', weight: 1 },
      { term: 'w1', weight: 1 },
    ],
    1,
  );
  assert.equal(index.searchWork.pruned, 0);
});

test('a loaded index scores its few survivors from the postings as the exhaustive search does', () => {
  const random = randomSource(99);
  const built = new LexicalIndex();
  for (let at = 0; at < 3000; at++) built.upsert(`d${at}`, randomDocument(random, 400, false));
  const loaded = LexicalIndex.fromDocuments(built.exportDocuments());
  loaded.prunedSearchFrom = 0;
  // Later documents are in the per-document copy, the loaded ones only in the postings: both kinds survive.
  for (let at = 0; at < 300; at++) loaded.upsert(`new${at}`, randomDocument(random, 400, false));
  let scored = 0;
  for (let round = 0; round < 60; round++) {
    // A rarer word as asked and common words as weak expansions: few documents can reach the best.
    const query = [
      { term: `w${20 + Math.floor(random() * 300)}`, weight: 1 + random() },
      ...Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
        term: `w${Math.floor(random() * 6)}`,
        weight: 0.02 + random() * 0.1,
      })),
    ];
    const limit = 1 + Math.floor(random() * 5);
    const before = loaded.searchWork.survivors;
    const cellsBefore = loaded.searchWork.survivorCells;
    const hits = loaded.search(query, limit);
    if (loaded.searchWork.survivors > before && loaded.searchWork.survivorCells === cellsBefore) scored++;
    assert.deepStrictEqual(hits, loaded.searchExhaustive(query, limit), `round ${round}`);
  }
  assert.ok(scored > 20, `only ${scored} searches scored their survivors one by one`);
});

test('with a filter that only answers, a search whose best the filter refuses returns the exhaustive hits without scanning them all', () => {
  // SearchOptions.pureFilter: after a refusal the pruned search runs again for more of the
  // unfiltered best instead of falling back to the exhaustive scan. Filters refusing a tenth to
  // nine tenths of the documents (by a hash of the id, so the same answer every time it is asked).
  let retried = 0;
  let answeredByRetry = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const { index, vocabulary, edit } = randomIndex(seed);
    const random = randomSource(seed * 104729);
    for (let round = 0; round < 30; round++) {
      if (round % 3 === 2) edit(3, round < 15);
      const query = randomQuery(random, vocabulary);
      const limit = 1 + Math.floor(random() ** 3 * 12);
      const refused = 0.1 + 0.8 * random();
      const accept = (id: string): boolean => {
        let hash = 0;
        for (let at = 0; at < id.length; at++) hash = (hash * 31 + id.charCodeAt(at)) % 1000;
        return hash / 1000 >= refused;
      };
      const before = { ...index.searchWork };
      const actual = index.search(query, limit, accept, { pureFilter: true });
      const where = `seed ${seed}, round ${round}, ${query.length} terms, limit ${limit}, refusing ${refused.toFixed(2)}`;
      assert.deepStrictEqual(actual, index.searchExhaustive(query, limit, accept), where);
      const retries = index.searchWork.filteredRetries - before.filteredRetries;
      if (retries > 0) retried++;
      // Answered by a retry: no exhaustive scan of every posting after it.
      if (retries > 0 && index.searchWork.refusedScans === before.refusedScans) answeredByRetry++;
      assert.deepStrictEqual(index.search(query, limit), index.searchExhaustive(query, limit), `${where}: after`);
    }
  }
  assert.ok(retried > 100, `only ${retried} searches were refused and tried again`);
  assert.ok(answeredByRetry > 50, `only ${answeredByRetry} refused searches were answered by a retry`);
});
