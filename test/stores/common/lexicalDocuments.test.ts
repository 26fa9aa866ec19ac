import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LexicalDocumentsError, LexicalIndex } from '../../../src/stores/common/lexicalIndex.ts';
import { exportDocumentSteps } from '../../../src/stores/common/lexicalExport.ts';
import { sortedOrder } from '../../../src/stores/common/sortedKeyIndex.ts';
import { runNow, sortedOrderSteps } from '../../../src/stores/common/steps.ts';

/** A seeded mix of upserts, re-upserts and removals, so slots are reused and the arena holds waste. */
function editedIndex(seed: number): LexicalIndex {
  let state = seed;
  const random = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const vocabulary = Array.from({ length: 60 }, (_, index) => `term${index}`);
  const index = new LexicalIndex();
  for (let step = 0; step < 3_000; step++) {
    const id = `doc${Math.floor(random() * 400)}`;
    if (random() < 0.3) {
      index.remove(id);
      continue;
    }
    const terms = new Map<string, number>();
    for (let count = 1 + Math.floor(random() * 8); count > 0; count--) {
      const term = vocabulary[Math.floor(random() * vocabulary.length)]!;
      terms.set(term, (terms.get(term) ?? 0) + 0.5 + Math.floor(random() * 3));
    }
    index.upsert(id, { terms, length: 1 + Math.floor(random() * 20) });
  }
  return index;
}

const queries = [
  ['term1'],
  ['term2', 'term3'],
  ['term10', 'term20', 'term30', 'term40'],
  Array.from({ length: 60 }, (_, index) => `term${index}`),
];

test('an index rebuilt from its exported documents answers every search exactly as the original, ties included', () => {
  const original = editedIndex(7);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  assert.equal(restored.size, original.size);
  assert.deepEqual(restored.stats(), original.stats());
  for (const terms of queries) {
    const weighted = terms.map((term) => ({ term, weight: 1 }));
    assert.deepEqual(restored.search(weighted, 50), original.search(weighted, 50), terms.join(' '));
    for (const term of terms) assert.equal(restored.documentFrequency(term), original.documentFrequency(term));
  }
  const someId = original.search([{ term: 'term1', weight: 1 }], 1)[0]!.memory_id;
  assert.deepEqual(restored.documentTerms(someId), original.documentTerms(someId));
});

test('a restored index keeps working: upserts, removals and growth after the load stay exact', () => {
  const original = editedIndex(11);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  for (const index of [original, restored]) {
    for (let n = 0; n < 500; n++)
      index.upsert(`late${n}`, {
        terms: new Map([
          ['term1', 1],
          [`fresh${n % 7}`, 2],
        ]),
        length: 3,
      });
    for (let n = 0; n < 400; n += 3) index.remove(`doc${n}`);
  }
  for (const terms of [...queries, ['fresh3', 'term1']]) {
    const weighted = terms.map((term) => ({ term, weight: 1 }));
    assert.deepEqual(restored.search(weighted, 100), original.search(weighted, 100), terms.join(' '));
  }
  assert.deepEqual(restored.stats(), original.stats());
});

test('exported terms are in string order and the id order sorts the ids, so a loaded index can search both', () => {
  const exported = editedIndex(5).exportDocuments();
  assert.deepEqual(exported.termNames, [...exported.termNames].sort());
  assert.deepEqual(
    [...exported.idOrder].map((position) => exported.ids[position]),
    [...exported.ids].sort(),
  );
  assert.notDeepEqual(exported.ids, [...exported.ids].sort(), 'insertion order differs from string order here');
});

test('a loaded document removed, re-added and its slot reused is found, or not, exactly as in the original', () => {
  const original = editedIndex(13);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  const [first, second] = restored.exportDocuments().ids;
  for (const index of [original, restored]) {
    index.remove(first!);
    index.upsert('newcomer', { terms: new Map([['term1', 3]]), length: 3 });
    index.remove(second!);
    index.upsert(second!, { terms: new Map([['term2', 1]]), length: 1 });
  }
  for (const id of [first!, second!, 'newcomer', 'never']) assert.equal(restored.has(id), original.has(id), id);
  assert.equal(restored.has(first!), false);
  assert.equal(restored.size, original.size);
  assert.deepEqual(restored.documentTerms(second!), new Map([['term2', 1]]));
  for (const terms of [['term1'], ['term2']]) {
    const weighted = terms.map((term) => ({ term, weight: 1 }));
    assert.deepEqual(restored.search(weighted, 400), original.search(weighted, 400), terms.join(' '));
  }
  assert.deepEqual(restored.exportDocuments(), original.exportDocuments());
});

test('terms whose every document was removed are not exported', () => {
  const index = new LexicalIndex();
  index.upsert('kept', { terms: new Map([['common', 1]]), length: 1 });
  index.upsert('erased', {
    terms: new Map([
      ['common', 1],
      ['zanzibar', 2],
    ]),
    length: 3,
  });
  index.remove('erased');
  const exported = index.exportDocuments();
  assert.deepEqual(exported.termNames, ['common']);
  assert.deepEqual(exported.ids, ['kept']);
});

test('documents whose parts do not add up are refused with a typed error, not loaded half-way', () => {
  const good = editedIndex(3).exportDocuments();
  const cases: Array<[string, typeof good]> = [
    [
      'a posting naming a missing document',
      {
        ...good,
        postingDocuments: Int32Array.from(good.postingDocuments, (doc, cell) =>
          cell === 5 ? good.ids.length + 1 : doc,
        ),
      },
    ],
    [
      'posting sizes that do not sum to the cells',
      { ...good, postingSizes: Int32Array.from(good.postingSizes, (size, term) => (term === 0 ? size + 1 : size)) },
    ],
    ['a repeated id', { ...good, ids: [good.ids[1]!, ...good.ids.slice(1)] }],
    ['a repeated term', { ...good, termNames: [good.termNames[1]!, ...good.termNames.slice(1)] }],
    ['arrays of different lengths', { ...good, lengths: good.lengths.subarray(1) }],
    [
      'a negative document number',
      { ...good, postingDocuments: Int32Array.from(good.postingDocuments, (doc, cell) => (cell === 3 ? -1 : doc)) },
    ],
    [
      'a document twice in one posting',
      {
        ...good,
        postingDocuments: Int32Array.from(good.postingDocuments, (doc, cell) =>
          cell === 1 ? good.postingDocuments[0]! : doc,
        ),
      },
    ],
    [
      'a posting out of document order',
      {
        ...good,
        postingDocuments: Int32Array.from(
          good.postingDocuments,
          (doc, cell) => good.postingDocuments[cell === 0 ? 1 : cell === 1 ? 0 : cell]!,
        ),
      },
    ],
    [
      'a negative posting size that keeps the sum',
      {
        ...good,
        postingSizes: Int32Array.from(good.postingSizes, (size, term) =>
          term === 0 ? -1 : term === 1 ? size + good.postingSizes[0]! + 1 : size,
        ),
      },
    ],
    [
      'posting sizes that sum to fewer cells than held',
      { ...good, postingSizes: Int32Array.from(good.postingSizes, (size, term) => (term === 0 ? size - 1 : size)) },
    ],
    ['posting frequencies of another length', { ...good, postingTfs: good.postingTfs.subarray(1) }],
    [
      'terms out of string order',
      { ...good, termNames: [good.termNames[1]!, good.termNames[0]!, ...good.termNames.slice(2)] },
    ],
    [
      'an id order that does not sort the ids',
      {
        ...good,
        idOrder: Int32Array.from(good.idOrder, (_, rank) => good.idOrder[rank === 0 ? 1 : rank === 1 ? 0 : rank]!),
      },
    ],
    [
      'an id order naming a missing document',
      { ...good, idOrder: good.idOrder.map((position, rank) => (rank === 0 ? good.ids.length : position)) },
    ],
  ];
  for (const [name, documents] of cases) {
    assert.throws(
      () => LexicalIndex.fromDocuments(documents),
      (error: unknown) => error instanceof LexicalDocumentsError && error.code === 'LEXICAL_DOCUMENTS_INVALID',
      name,
    );
  }
});

test('term frequencies are held in exact half units: every analyzer weight sum comes back as it went in, a huge one is capped', () => {
  const index = new LexicalIndex();
  const frequencies = [0.5, 1, 1.5, 2, 2.5, 3.5, 7, 40.5, 1_000, 32_767.5];
  index.upsert('doc', {
    terms: new Map(frequencies.map((tf, at) => [`t${at}`, tf])),
    length: 10,
  });
  index.upsert('huge', { terms: new Map([['t0', 1_000_000]]), length: 1_000_000 });
  assert.deepEqual([...index.documentTerms('doc')!.values()], frequencies);
  assert.equal(index.documentTerms('huge')!.get('t0'), 32_767.5);
  const restored = LexicalIndex.fromDocuments(index.exportDocuments());
  assert.deepEqual(restored.documentTerms('doc'), index.documentTerms('doc'));
  assert.ok(index.exportDocuments().postingTfs instanceof Uint16Array);
});

test('a frozen index exports the documents it had when frozen, however the index changes meanwhile (compactions included)', () => {
  const index = editedIndex(11);
  const before = index.exportDocuments();
  const frozen = index.freeze();
  // Remove most documents (the arena compacts when waste passes half) and write new ones over their slots.
  for (let doc = 0; doc < 400; doc++) if (doc % 5 !== 0) index.remove(`doc${doc}`);
  for (let doc = 0; doc < 300; doc++)
    index.upsert(`late${doc}`, {
      terms: new Map(Array.from({ length: 20 }, (_, at) => [`term${(doc + at) % 60}`, 1])),
      length: 20,
    });
  assert.notDeepEqual(index.exportDocuments(), before);
  assert.deepEqual(runNow(exportDocumentSteps(frozen)), before);
});

test('the sliced sort gives the permutation a native sort gives, over several runs and merges', () => {
  let state = 3;
  const random = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const count of [0, 1, 1_023, 1_024, 1_025, 5_000, 20_001]) {
    const keys = Array.from({ length: count }, (_, at) => `${Math.floor(random() * 1e9).toString(36)}-${at}`);
    assert.deepEqual(runNow(sortedOrderSteps(keys)), sortedOrder(keys));
  }
});

test('a loaded index makes its per-document copy from the postings exactly: every document’s terms and frequencies', () => {
  const original = editedIndex(17);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  const ids = original.exportDocuments().ids;
  assert.ok(ids.length > 100);
  for (const id of ids) assert.deepEqual(restored.documentTerms(id), original.documentTerms(id), id);
  assert.equal(restored.documentTerms('never'), undefined);
});

for (const [name, firstChange] of [
  [
    'a write of a new document',
    (index: LexicalIndex) => index.upsert('newcomer', { terms: new Map([['term1', 2]]), length: 2 }),
  ],
  [
    'a rewrite of a loaded document',
    (index: LexicalIndex) => index.upsert('doc7', { terms: new Map([['term59', 1]]), length: 1 }),
  ],
  ['a removal of a loaded document', (index: LexicalIndex) => index.remove('doc7')],
] as const) {
  test(`${name} right after a load is exact: searches, statistics, terms and the next export`, () => {
    const original = editedIndex(19);
    assert.ok(original.has('doc7'));
    const restored = LexicalIndex.fromDocuments(original.exportDocuments());
    for (const index of [original, restored]) firstChange(index);
    for (const terms of [...queries, ['term59']]) {
      const weighted = terms.map((term) => ({ term, weight: 1 }));
      assert.deepEqual(restored.search(weighted, 400), original.search(weighted, 400), terms.join(' '));
    }
    assert.deepEqual(restored.stats(), original.stats());
    assert.deepEqual(restored.documentTerms('doc7'), original.documentTerms('doc7'));
    assert.deepEqual(restored.exportDocuments(), original.exportDocuments());
  });
}

test('a loaded index holds each cell once: no per-document copy until a removal, a write or a per-document read needs one', () => {
  const original = editedIndex(31);
  const documents = original.exportDocuments();
  const cells = documents.postingDocuments.length;
  const [first] = documents.ids;
  for (const needsIt of [
    (index: LexicalIndex) => index.remove(first!),
    (index: LexicalIndex) => index.upsert(first!, { terms: new Map([['term1', 1]]), length: 1 }),
    (index: LexicalIndex) => index.documentTerms(first!),
    (index: LexicalIndex) => index.freeze(),
  ]) {
    const restored = LexicalIndex.fromDocuments(original.exportDocuments());
    restored.search([{ term: 'term1', weight: 1 }], 10);
    restored.remove('not-there');
    // A new document's write and its own terms need only its own cells.
    restored.upsert('newcomer', { terms: new Map([['term1', 1]]), length: 1 });
    assert.deepEqual(restored.documentTerms('newcomer'), new Map([['term1', 1]]));
    assert.equal(restored.has(first!), true);
    assert.ok(restored.documentCopyCapacity() < 100, 'searches, lookups and new documents need no per-document copy');
    needsIt(restored);
    assert.ok(restored.documentCopyCapacity() >= cells);
  }
});

test('documents written, rewritten and removed after a load, then a loaded one removed: the copy made then is exact', () => {
  const original = editedIndex(37);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  const loadedIds = original.exportDocuments().ids;
  for (const index of [original, restored]) {
    // Enough new documents to grow and compact the new arena before the loaded documents join it.
    for (let n = 0; n < 600; n++)
      index.upsert(`late${n % 150}`, {
        terms: new Map([
          [`term${n % 60}`, 1 + (n % 3)],
          [`fresh${n % 11}`, 0.5],
        ]),
        length: 2 + (n % 5),
      });
    for (let n = 0; n < 150; n += 4) index.remove(`late${n}`);
    index.remove(loadedIds[3]!);
    index.upsert(loadedIds[5]!, { terms: new Map([['fresh1', 2]]), length: 2 });
  }
  for (const id of [...loadedIds, ...Array.from({ length: 150 }, (_, n) => `late${n}`)])
    assert.deepEqual(restored.documentTerms(id), original.documentTerms(id), id);
  for (const terms of [...queries, ['fresh1', 'term7'], ['fresh3']]) {
    const weighted = terms.map((term) => ({ term, weight: 1 }));
    assert.deepEqual(restored.search(weighted, 400), original.search(weighted, 400), terms.join(' '));
  }
  assert.deepEqual(restored.stats(), original.stats());
  assert.deepEqual(restored.exportDocuments(), original.exportDocuments());
});

test('a save after a load with no change exports exactly the documents it loaded', () => {
  const original = editedIndex(23);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  assert.deepEqual(restored.exportDocuments(), original.exportDocuments());
  assert.deepEqual(runNow(exportDocumentSteps(restored.freeze())), original.exportDocuments());
});

test('matched terms are the query terms each hit’s document has, in query order, for any number of terms', () => {
  const original = editedIndex(29);
  const restored = LexicalIndex.fromDocuments(original.exportDocuments());
  // 75 terms: past the 31 with a mask bit of their own, with repeats, unknown terms and a zero weight.
  const terms = [
    ...Array.from({ length: 60 }, (_, at) => ({ term: `term${(at * 7) % 60}`, weight: 1 + (at % 3) })),
    { term: 'unknown', weight: 1 },
    { term: 'term5', weight: 0 },
    ...Array.from({ length: 13 }, (_, at) => ({ term: `term${at * 4}`, weight: 0.5 })),
  ];
  for (const index of [original, restored]) {
    for (const count of [1, 30, 31, 32, 40, terms.length]) {
      const query = terms.slice(0, count);
      const hits = index.search(query, 60);
      assert.ok(hits.length > 0);
      for (const hit of hits) {
        const own = index.documentTerms(hit.memory_id)!;
        const expected = query.filter(({ term, weight }) => weight > 0 && own.has(term)).map(({ term }) => term);
        assert.deepEqual(hit.matched_terms, expected, `${hit.memory_id} of ${count} terms`);
      }
    }
  }
  const filtered = restored.search(terms, 5, (id) => id.endsWith('3'));
  for (const hit of filtered) assert.ok(hit.memory_id.endsWith('3'));
  // The scratch state is clean between searches: a one-term search after a 75-term one matches only that term.
  for (const hit of restored.search([{ term: 'term1', weight: 1 }], 400))
    assert.deepEqual(hit.matched_terms, ['term1']);
});
