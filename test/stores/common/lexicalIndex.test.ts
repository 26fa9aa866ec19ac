import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeDocument, analyzeQuery } from '../../../src/core/text/analyzer.ts';
import { bm25Idf, LexicalIndex } from '../../../src/stores/common/lexicalIndex.ts';

function doc(content: string) {
  return analyzeDocument({ content, entities: [], tags: [] });
}

function build(contents: Record<string, string>, options?: { k1?: number; b?: number }): LexicalIndex {
  const index = new LexicalIndex(options);
  for (const [id, content] of Object.entries(contents)) index.upsert(id, doc(content));
  return index;
}

/** Random upserts and removals applied to the index; returns the documents it should now hold. */
function randomEdits(
  index: LexicalIndex,
  options: { seed: number; vocabulary: string[]; steps: number; ids: number; removeShare: number; maxTerms: number },
): Map<string, Map<string, number>> {
  let seed = options.seed;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const docs = new Map<string, Map<string, number>>();
  for (let i = 0; i < options.steps; i++) {
    const id = `d${Math.floor(random() * options.ids)}`;
    if (random() < options.removeShare) {
      index.remove(id);
      docs.delete(id);
      continue;
    }
    const terms = new Map<string, number>();
    const count = 1 + Math.floor(random() * options.maxTerms);
    for (let j = 0; j < count; j++) {
      const term = options.vocabulary[Math.floor(random() * options.vocabulary.length)];
      terms.set(term, (terms.get(term) ?? 0) + 1);
    }
    index.upsert(id, { terms, length: count });
    docs.set(id, terms);
  }
  return docs;
}

const CORPUS = {
  a: 'Postgres connection pool exhausted under load',
  b: 'Use pnpm instead of npm for this repository',
  c: 'The connection string lives in DATABASE_URL',
  d: 'Deploy with docker compose; the pool size is 20',
  e: 'Lunch was good',
};

test('ranks documents by BM25, rare terms first', () => {
  const index = build(CORPUS);
  const hits = index.search(analyzeQuery('connection pool'), 10);
  assert.deepEqual(
    hits.map((hit) => hit.memory_id),
    ['a', 'c', 'd'],
  );
  assert.deepEqual(hits[0].matched_terms, ['connect', 'pool']);
  assert.ok(hits[0].score > hits[1].score);
});

test('computes the exact Lucene BM25 score', () => {
  const index = build(CORPUS, { k1: 1.2, b: 0.75 });
  const [hit] = index.search([{ term: 'pnpm', weight: 1 }], 1);
  const { documents, averageLength } = index.stats();
  const length = doc(CORPUS.b).length;
  const expected = (bm25Idf(documents, 1) * 2.2) / (1 + 1.2 * (0.25 + (0.75 * length) / averageLength));
  assert.equal(hit.memory_id, 'b');
  assert.ok(Math.abs(hit.score - expected) < 1e-9);
});

test('query weights scale term contributions', () => {
  const index = build(CORPUS);
  const light = index.search([{ term: 'docker', weight: 1 }], 1)[0].score;
  const heavy = index.search([{ term: 'docker', weight: 2 }], 1)[0].score;
  assert.ok(Math.abs(heavy - 2 * light) < 1e-9);
});

test('shorter documents win at equal tf when b > 0, and ties keep insertion order', () => {
  const index = build({ long: 'cache cache warm cold misses evictions', short: 'cache cache', twin: 'cache cache' });
  assert.deepEqual(
    index.search([{ term: 'cach', weight: 1 }], 3).map((hit) => hit.memory_id),
    ['short', 'twin', 'long'],
  );
});

test('removal and upsert keep statistics exact', () => {
  const index = build(CORPUS);
  assert.equal(index.size, 5);
  assert.equal(index.documentFrequency('pool'), 2);
  const before = index.stats();

  index.remove('a');
  assert.equal(index.has('a'), false);
  assert.equal(index.documentFrequency('pool'), 1);
  assert.equal(index.documentFrequency('postgr'), 0);
  assert.deepEqual(index.search(analyzeQuery('postgres'), 5), []);

  index.upsert('a', doc(CORPUS.a));
  assert.deepEqual(index.stats(), before);
  index.upsert('a', doc('Redis pool'));
  assert.equal(index.size, 5);
  assert.equal(index.documentFrequency('postgr'), 0);
  assert.equal(index.documentFrequency('redi'), 1);
  assert.deepEqual(
    index.search(analyzeQuery('redis'), 5).map((hit) => hit.memory_id),
    ['a'],
  );

  const rebuilt = build({ ...CORPUS, a: 'Redis pool' });
  assert.deepEqual(index.stats(), rebuilt.stats());
  assert.deepEqual(index.search(analyzeQuery('pool'), 5), rebuilt.search(analyzeQuery('pool'), 5));
});

test('removing everything empties the index', () => {
  const index = build(CORPUS);
  for (const id of Object.keys(CORPUS)) index.remove(id);
  index.remove('missing');
  assert.deepEqual(index.stats(), { documents: 0, averageLength: 0 });
  assert.deepEqual(index.search(analyzeQuery('pool'), 5), []);
});

test('filters before the top-k cut so filtered recall is exact', () => {
  const contents: Record<string, string> = {};
  for (let i = 0; i < 50; i++) contents[`strong${i}`] = 'deploy deploy deploy';
  contents.weak = 'deploy notes for the staging cluster and more words';
  const index = build(contents);
  const hits = index.search(analyzeQuery('deploy'), 1, (id) => id === 'weak');
  assert.deepEqual(
    hits.map((hit) => hit.memory_id),
    ['weak'],
  );
});

test('any filter gives the hits of ranking every document and filtering them, ties included', () => {
  const index = new LexicalIndex();
  randomEdits(index, {
    seed: 11,
    vocabulary: ['alpha', 'beta', 'gamma', 'delta'],
    steps: 600,
    ids: 300,
    removeShare: 0.1,
    maxTerms: 3,
  });
  const query = [
    { term: 'alpha', weight: 1 },
    { term: 'gamma', weight: 0.7 },
    { term: 'delta', weight: 0.2 },
  ];
  const everything = index.search(query, index.size);
  let seed = 5;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const refused of [0, 0.02, 0.3, 0.9, 1]) {
    const refusedIds = new Set(everything.filter(() => random() < refused).map((hit) => hit.memory_id));
    for (const limit of [1, 5, 20, everything.length + 3]) {
      const expected = everything.filter((hit) => !refusedIds.has(hit.memory_id)).slice(0, limit);
      const hits = index.search(query, limit, (id) => !refusedIds.has(id));
      assert.deepEqual(hits, expected, `refusing ${refused}, limit ${limit}`);
    }
  }
});

test('a filter that takes the best documents is asked about those only', () => {
  const index = new LexicalIndex();
  randomEdits(index, {
    seed: 3,
    vocabulary: ['alpha', 'beta', 'gamma'],
    steps: 400,
    ids: 400,
    removeShare: 0,
    maxTerms: 3,
  });
  const query = [{ term: 'alpha', weight: 1 }];
  const asked: string[] = [];
  const hits = index.search(query, 10, (id) => {
    asked.push(id);
    return true;
  });
  assert.equal(hits.length, 10);
  assert.deepEqual(
    asked,
    hits.map((hit) => hit.memory_id),
  );
});

test('a filter that throws leaves the next search exact', () => {
  const index = build(CORPUS);
  const query = analyzeQuery('connection pool timeout');
  const before = index.search(query, 3);
  assert.throws(
    () =>
      index.search(query, 3, () => {
        throw new Error('filter failed');
      }),
    /filter failed/u,
  );
  assert.deepEqual(index.search(query, 3), before);
});

test('idf statistics match the definition', () => {
  const index = build(CORPUS);
  assert.equal(index.stats().documents, 5);
  const lengths = Object.values(CORPUS).map((content) => doc(content).length);
  assert.equal(index.stats().averageLength, lengths.reduce((x, y) => x + y, 0) / 5);
  assert.ok(bm25Idf(5, 1) > bm25Idf(5, 2));
  assert.ok(bm25Idf(5, 5) > 0);
});

test('limit and unknown terms', () => {
  const index = build(CORPUS);
  assert.equal(index.search(analyzeQuery('connection pool'), 2).length, 2);
  assert.deepEqual(index.search(analyzeQuery('kubernetes'), 5), []);
  assert.deepEqual(index.search(analyzeQuery('pool'), 0), []);
});

test('matches a brute-force BM25 on a random corpus', () => {
  const index = new LexicalIndex({ k1: 0.9, b: 0.4 });
  const docs = randomEdits(index, {
    seed: 7,
    vocabulary: ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'],
    steps: 300,
    ids: 120,
    removeShare: 0.2,
    maxTerms: 6,
  });
  const query = [
    { term: 'alpha', weight: 1 },
    { term: 'theta', weight: 0.5 },
  ];
  const n = docs.size;
  const avg = [...docs.values()].reduce((sum, terms) => sum + [...terms.values()].reduce((x, y) => x + y, 0), 0) / n;
  const df = (term: string) => [...docs.values()].filter((terms) => terms.has(term)).length;
  const expected = [...docs]
    .map(([id, terms]) => {
      const length = [...terms.values()].reduce((x, y) => x + y, 0);
      let score = 0;
      for (const { term, weight } of query) {
        const tf = terms.get(term) ?? 0;
        if (tf > 0) score += (weight * bm25Idf(n, df(term)) * tf * 1.9) / (tf + 0.9 * (0.6 + (0.4 * length) / avg));
      }
      return { id, score };
    })
    .filter((entry) => entry.score > 0)
    .sort((x, y) => y.score - x.score);
  const hits = index.search(query, 10);
  assert.equal(index.size, n);
  assert.equal(hits.length, 10);
  for (let i = 0; i < 10; i++) assert.ok(Math.abs(hits[i].score - expected[i].score) < 1e-9, `rank ${i}`);
});

test('keeps every document’s terms exact through slot reuse and arena compaction', () => {
  const vocabulary = Array.from({ length: 60 }, (_, i) => `term${i}`);
  const index = new LexicalIndex();
  // Thousands of replacements and removals of 400 ids: freed slots are reused out of arena order
  // and the arena (1,024 cells at first) grows and compacts many times.
  const docs = randomEdits(index, { seed: 99, vocabulary, steps: 6000, ids: 400, removeShare: 0.15, maxTerms: 12 });
  assert.equal(index.size, docs.size);
  for (const [id, terms] of docs)
    assert.deepEqual(new Map([...(index.documentTerms(id) ?? [])].sort()), new Map([...terms].sort()), id);
  for (const term of vocabulary)
    assert.equal(index.documentFrequency(term), [...docs.values()].filter((terms) => terms.has(term)).length, term);
  const query = [
    { term: 'term3', weight: 1 },
    { term: 'term41', weight: 1 },
    { term: 'unknown', weight: 1 },
  ];
  const hits = index.search(query, 500);
  assert.equal(hits.length, [...docs.values()].filter((terms) => terms.has('term3') || terms.has('term41')).length);
  for (const hit of hits) {
    const terms = docs.get(hit.memory_id)!;
    assert.deepEqual(
      hit.matched_terms,
      ['term3', 'term41'].filter((term) => terms.has(term)),
      hit.memory_id,
    );
  }
  for (const id of [...docs.keys()]) index.remove(id);
  assert.equal(index.size, 0);
  assert.deepEqual(index.search(query, 10), []);
});

test('postings that grow, move and are compacted keep every score exact, and the columns stay bounded', () => {
  // 1,500 terms over 3,000 ids and 20,000 edits: every run fills and moves many times, freed runs
  // pile up, and the shared columns are compacted instead of growing without end.
  const vocabulary = Array.from({ length: 1500 }, (_, i) => `w${i}`);
  const index = new LexicalIndex({ k1: 0.9, b: 0.4 });
  const docs = randomEdits(index, { seed: 5, vocabulary, steps: 20_000, ids: 3000, removeShare: 0.25, maxTerms: 10 });
  const lengths = new Map([...docs].map(([id, terms]) => [id, [...terms.values()].reduce((x, y) => x + y, 0)]));
  const n = docs.size;
  const avg = [...lengths.values()].reduce((x, y) => x + y, 0) / n;
  for (const words of [['w0'], ['w7', 'w900'], ['w3', 'w1499', 'w42', 'w1000']]) {
    const query = words.map((term) => ({ term, weight: 1 }));
    const df = (term: string) => [...docs.values()].filter((terms) => terms.has(term)).length;
    const expected = new Map<string, number>();
    for (const [id, terms] of docs) {
      let score = 0;
      for (const { term } of query) {
        const tf = terms.get(term) ?? 0;
        if (tf > 0) score += (bm25Idf(n, df(term)) * tf * 1.9) / (tf + 0.9 * (0.6 + (0.4 * lengths.get(id)!) / avg));
      }
      if (score > 0) expected.set(id, score);
    }
    const hits = index.search(query, 10_000);
    assert.equal(hits.length, expected.size, words.join(' '));
    for (const hit of hits) assert.ok(Math.abs(hit.score - expected.get(hit.memory_id)!) < 1e-9, hit.memory_id);
  }
  assert.equal(
    index.postingFootprint().cells,
    [...docs.values()].reduce((sum, terms) => sum + terms.size, 0),
  );
});

test('runs that moved away are compacted before the posting columns grow', () => {
  // Ten terms in every one of 5,000 documents: each run doubles eleven times, leaving its old
  // rooms behind. Without compaction the columns reach 262,144 cells for 50,000 in use.
  const index = new LexicalIndex();
  const terms = new Map(Array.from({ length: 10 }, (_, term) => [`t${term}`, 1]));
  for (let doc = 0; doc < 5000; doc++) index.upsert(`d${doc}`, { terms, length: 10 });
  const { cells, capacity } = index.postingFootprint();
  assert.equal(cells, 50_000);
  assert.ok(capacity <= 3 * cells, `${capacity} cells of room for ${cells} in use`);
  for (let term = 0; term < 10; term++) assert.equal(index.documentFrequency(`t${term}`), 5000);
  const hits = index.search([{ term: 't3', weight: 1 }], 5000);
  assert.deepEqual(
    hits.map((hit) => hit.memory_id),
    Array.from({ length: 5000 }, (_, doc) => `d${doc}`),
  );
});

test('an index built from documents holds them in exactly sized columns', () => {
  const original = new LexicalIndex();
  randomEdits(original, {
    seed: 3,
    vocabulary: ['a', 'b', 'c', 'd'],
    steps: 500,
    ids: 200,
    removeShare: 0.1,
    maxTerms: 3,
  });
  const documents = original.exportDocuments();
  const restored = LexicalIndex.fromDocuments(documents);
  const cells = documents.postingDocuments.length;
  assert.deepEqual(restored.postingFootprint(), { cells, capacity: cells });
});
