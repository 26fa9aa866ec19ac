import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyzeDocument,
  analyzeQuery,
  analyzeQueryOfContent,
  ANALYZER_VERSION,
  FIELD_WEIGHTS,
  weightedTerms,
} from '../../../src/core/text/analyzer.ts';

test('exposes a positive integer version', () => {
  assert.ok(Number.isInteger(ANALYZER_VERSION) && ANALYZER_VERSION > 0);
});

test('stems words, drops stop words and counts length without them', () => {
  const doc = analyzeDocument({ content: 'The painters were painting paintings', entities: [], tags: [] });
  assert.deepEqual(
    [...doc.terms],
    [
      ['painter', 1],
      ['paint', 2],
    ],
  );
  assert.equal(doc.length, 3);
});

test('indexes identifiers whole and by part without counting the whole in the length', () => {
  const doc = analyzeDocument({ content: 'call getUserById', entities: [], tags: [] });
  assert.deepEqual([...doc.terms.keys()], ['call', 'getuserbyid', 'get', 'user', 'id']);
  assert.equal(doc.length, 4);
});

test('weights entity, tag and summary fields BM25F-style', () => {
  const doc = analyzeDocument({
    content: 'users table migration',
    entities: ['table:users'],
    tags: ['database'],
    summary: 'users migration',
  });
  assert.equal(doc.terms.get('user'), FIELD_WEIGHTS.content + FIELD_WEIGHTS.summary + FIELD_WEIGHTS.entities);
  assert.equal(doc.terms.get('tabl'), FIELD_WEIGHTS.content + FIELD_WEIGHTS.entities);
  assert.equal(doc.terms.get('table:users'), FIELD_WEIGHTS.entities);
  assert.equal(doc.terms.get('databas'), FIELD_WEIGHTS.tags);
  assert.equal(doc.length, 3 + 2 * FIELD_WEIGHTS.summary + 2 * FIELD_WEIGHTS.entities + FIELD_WEIGHTS.tags);
});

test('query terms are deduplicated and identifiers outweigh their parts', () => {
  const terms = analyzeQuery('How do I call getUserById for the user?');
  const weights = Object.fromEntries(terms.map(({ term, weight }) => [term, weight]));
  assert.equal(weights.how, undefined);
  assert.equal(terms.filter(({ term }) => term === 'user').length, 1);
  assert.ok(weights.getuserbyid > weights.get);
  assert.equal(weights.user, weights.get + 1);
  assert.equal(weights.call, 1);
});

test('a query of only stop words yields no terms', () => {
  assert.deepEqual(analyzeQuery('what is it?'), []);
});

test('weightedTerms gives every entry of a term map, in insertion order, and a fresh list each time', () => {
  const weights = new Map([
    ['zeta', 2],
    ['alpha', 0.5],
    ['mid', 1],
  ]);
  const terms = weightedTerms(weights);
  assert.deepEqual(terms, [
    { term: 'zeta', weight: 2 },
    { term: 'alpha', weight: 0.5 },
    { term: 'mid', weight: 1 },
  ]);
  terms.pop();
  assert.equal(weightedTerms(weights).length, 3);
  assert.deepEqual(weightedTerms(new Map()), []);
});

test('a content analysed as a query first is indexed exactly as without it, and its terms are the query terms', () => {
  const texts = [
    'The painters were painting paintings',
    'call getUserById from src/api/user_service.ts, then re-run v1.2.3 with C++ and c# at 10:30',
    'the a of and',
    '',
    'Ünïcödé naïve café — déjà vu: x_y.z/a-b @scope/pkg#12',
  ];
  for (const content of texts) {
    const doc = { content, entities: ['Alice Smith'], tags: ['release-notes'], summary: 'a short summary' };
    const fresh = analyzeDocument(doc);
    const query = analyzeQueryOfContent(content);
    assert.deepEqual(query, analyzeQuery(content));
    const handedOver = analyzeDocument(doc);
    assert.deepEqual([...handedOver.terms], [...fresh.terms]);
    assert.equal(handedOver.length, fresh.length);
    // Taken once: the next analysis of the same text is made afresh and is again the same.
    const again = analyzeDocument(doc);
    assert.deepEqual([...again.terms], [...fresh.terms]);
    assert.equal(again.length, fresh.length);
  }
});

test("analyzeQueryOfContent gives analyzeQuery's terms on random texts, so store_memory analyses its content once for both of its searches", () => {
  // store_memory's contradiction search takes the terms its duplicate search analysed
  // (analyzeQueryOfContent) instead of analyzeQuery of the same content: they must be the same list.
  const pieces = [
    'port',
    'Ports',
    'is',
    'not',
    "don't",
    "O'Neil",
    "user's",
    'getUserById',
    'user_id',
    'src/api/x.ts',
    'v1.2.3',
    'C++',
    'c#',
    'naïve',
    'ﬁle',
    'Ｆｕｌｌ',
    '10:30',
    '--',
    '...',
    'x',
    'the',
    'a-b-c',
    '@scope/pkg',
    'déjà',
    '42',
  ];
  const separators = [' ', ' ', ', ', '. ', '\n', '-', '/', ''];
  let seed = 7;
  const next = (size: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % size;
  };
  for (let text = 0; text < 500; text++) {
    let content = '';
    for (let word = next(40); word > 0; word--)
      content += pieces[next(pieces.length)] + separators[next(separators.length)];
    assert.deepEqual(analyzeQueryOfContent(content), analyzeQuery(content), content);
  }
});
