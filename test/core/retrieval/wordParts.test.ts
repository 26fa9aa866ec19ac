import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import { partSearchTerms, wordPartsForEvaluation } from '../../../src/core/retrieval/wordParts.ts';
import { isWordPart } from '../../../src/core/text/wordParts.ts';
import { analyzeDocument } from '../../../src/core/text/analyzer.ts';
import { LexicalIndex } from '../../../src/stores/common/lexicalIndex.ts';
import { createTestCore, storeNotes, type TestCore } from '../../support/testCore.ts';

describe('a query word inside a longer word of a memory', () => {
  it('is a part only at the start or the end of a longer word of letters', () => {
    assert.equal(isWordPart('cach', 'memcach'), true);
    assert.equal(isWordPart('time', 'timestamp'), true);
    assert.equal(isWordPart('cach', 'cach'), false, 'the word itself is a match, not a part');
    assert.equal(isWordPart('limit', 'unlimitedly'), false, 'inside, neither start nor end');
    assert.equal(isWordPart('test', 'test2'), false, 'an identifier piece with digits is no compound of words');
  });

  it('looks for informative words of four letters or more, never generic ones', () => {
    assert.deepEqual(partSearchTerms([queryConcepts('where are login sessions cached')]).sort(), [
      'cach',
      'login',
      'session',
    ]);
    assert.deepEqual(partSearchTerms([queryConcepts('which log app')]), [], '"log" and "app" are too short');
    assert.ok(!partSearchTerms([queryConcepts('how do we make the build')]).includes('make'), '"make" is generic');
  });

  it('is reported by the lexical index from its postings, the alphabetically first word per part', () => {
    const index = new LexicalIndex();
    const add = (id: string, content: string) => index.upsert(id, analyzeDocument({ content, entities: [], tags: [] }));
    add('a', 'sessions live in memcached and precached pages');
    add('b', 'the cache holds sessions');
    add('c', 'sessions expire');
    const expected = [[{ part: 'cach', term: 'memcach' }], [], [], []];
    assert.deepEqual(index.partMatches(['a', 'b', 'c', 'missing'], ['cach', 'session']), expected);
    // An index loaded from its persisted form has no per-document terms until one is needed: the same answer.
    const loaded = LexicalIndex.fromDocuments(index.exportDocuments());
    assert.deepEqual(loaded.partMatches(['a', 'b', 'c', 'missing'], ['cach', 'session']), expected);
    // A long posting on a loaded index is searched per document rather than scanned: the same answer.
    const many = new LexicalIndex();
    for (let at = 0; at < 60; at++)
      many.upsert(`d${at}`, analyzeDocument({ content: `note ${at} on memcached`, entities: [], tags: [] }));
    many.upsert('other', analyzeDocument({ content: 'the cache is warm', entities: [], tags: [] }));
    const loadedMany = LexicalIndex.fromDocuments(many.exportDocuments());
    loadedMany.upsert('later', analyzeDocument({ content: 'a later memcached note', entities: [], tags: [] }));
    assert.deepEqual(loadedMany.partMatches(['d7', 'other', 'd59', 'later'], ['cach']), [
      [{ part: 'cach', term: 'memcach' }],
      [],
      [{ part: 'cach', term: 'memcach' }],
      [{ part: 'cach', term: 'memcach' }],
    ]);
    // Words filed after the first call are found too.
    add('c', 'sessions expire; webhooks notify');
    assert.deepEqual(index.partMatches(['c'], ['hook']), [[{ part: 'hook', term: 'webhook' }]]);
  });
});

describe('recall through a word part', () => {
  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    await storeNotes(test, user, [
      'User sessions are kept in Memcached for 24 hours; the session middleware is in internal/session/store.go.',
      'The nightly ETL failed with too many open files; raising ulimit -n to 65536 on the worker fixed it.',
      'Every request is logged with its session id and user agent.',
      'The release checklist lives in docs/release.md and is read before every deploy.',
      'Invoices are rendered as PDF by the billing worker.',
      'Search indexes are rebuilt every Sunday night.',
    ]);
  });
  after(() => {
    wordPartsForEvaluation();
    return test.cleanup();
  });

  const ask = (query: string) => test.core.recall({ user_id: user, query }, { logAccess: false });

  it('answers with the memory that writes the question word inside a longer word, and says so', async () => {
    const result = await ask('where are login sessions cached');
    assert.match(result.memories[0]?.content ?? '', /Memcached/);
    assert.match(result.memories[0]?.why_matched ?? '', /cach in memcach/);
  });

  it('abstains on the same question without the rule: one shared word is not enough', async () => {
    wordPartsForEvaluation({ on: false });
    try {
      const result = await ask('where are login sessions cached');
      assert.deepEqual(
        result.memories.map((memory) => memory.content),
        [],
      );
    } finally {
      wordPartsForEvaluation();
    }
  });

  it('finds no memory by a part alone: a memory must share a word of its own with the question', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'what is cached', min_similarity: 0 },
      { logAccess: false },
    );
    assert.deepEqual(result.memories, [], 'only "Memcached" holds the word, and nothing else is shared');
  });

  it('names the longer word that holds the part in why_matched', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'open files limit', min_similarity: 0 },
      { logAccess: false },
    );
    assert.match(result.memories[0]?.content ?? '', /ulimit/);
    assert.match(result.memories[0]?.why_matched ?? '', /limit in ulimit/);
  });
});
