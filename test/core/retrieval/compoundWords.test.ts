import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JOINED_CREDIT } from '../../../src/core/retrieval/compoundWords.ts';
import { queryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import { createTestCore, storeNotes, type TestCore } from '../../support/testCore.ts';

const joinedOf = (query: string, term: string): string[][] =>
  (queryConcepts(query).find((concept) => concept.term === term)?.alternatives ?? [])
    .filter((alternative) => alternative.kind === 'joined')
    .map((alternative) => alternative.terms);

describe('compounds written together in a memory', () => {
  it('searches two adjacent query words as one word, for each informative word of the pair', () => {
    assert.deepEqual(joinedOf('open the dev tools panel', 'dev'), [['devtool']]);
    assert.deepEqual(joinedOf('open the dev tools panel', 'tool'), [['devtool'], ['toolspanel']]);
    const bridge = queryConcepts('on the road trip').find((concept) => concept.term === 'road')?.alternatives[0];
    assert.equal(bridge?.credit, JOINED_CREDIT);
    assert.equal(bridge?.label, 'road trip ← roadtrip');
  });

  it('joins a particle after its verb, never a function word before a word', () => {
    assert.deepEqual(joinedOf('how do I set up the linter', 'set'), [['setup']]);
    assert.deepEqual(joinedOf('the dev server', 'dev'), [['devserv']], '"the dev" is no compound');
  });

  it('leaves identifiers to the tokenizer: their parts are already searched', () => {
    assert.deepEqual(joinedOf('dev-tools panel', 'dev'), []);
  });
});

const splitsOf = (query: string, term: string): string[][] =>
  (queryConcepts(query).find((concept) => concept.term === term)?.alternatives ?? [])
    .filter((alternative) => alternative.kind === 'split')
    .map((alternative) => alternative.terms);

describe('compounds written apart in a memory', () => {
  it('splits a plain word into two informative words, never into a generic one', () => {
    assert.ok(splitsOf('devtools', 'devtool').some((terms) => terms.join(' ') === 'dev tool'));
    assert.deepEqual(splitsOf('partake', 'partak'), [], '"take" and "part" are generic: in memories about anything');
    assert.deepEqual(splitsOf('the wifi', 'wifi'), [], 'no part of three letters or more on both sides');
  });

  it('never splits into an irregular or other-spelled form of a generic word', () => {
    // "took" is "take", "went" is "go" (generic in any form): asked of a set of the words with a
    // generic variant, worked out once, not of each part's own variants.
    const labels = (query: string, term: string) =>
      (queryConcepts(query).find((concept) => concept.term === term)?.alternatives ?? [])
        .filter((alternative) => alternative.kind === 'split')
        .map((alternative) => alternative.label);
    assert.ok(!labels('tookphotos', 'tookphoto').includes('tookphotos ← took photos'));
    assert.ok(labels('tookphotos', 'tookphoto').includes('tookphotos ← tookp hotos'), 'the other splits stay');
    assert.ok(!labels('wentskiing', 'wentski').includes('wentskiing ← went skiing'));
    assert.ok(labels('kerskiing', 'kerski').includes('kerskiing ← ker skiing'), 'a part that is no generic form');
  });

  it('gives every query that has a word the same splits (they are worked out once per word)', () => {
    const splits = (query: string): string[] =>
      (queryConcepts(query).find((concept) => concept.term === 'devtool')?.alternatives ?? [])
        .filter((alternative) => alternative.kind === 'split')
        .map((alternative) => `${alternative.label}: ${alternative.terms.join(' ')}`);
    const first = splits('where are the devtools');
    assert.ok(first.includes('devtools ← dev tools: dev tool'));
    assert.deepEqual(splits('open Devtools now'), first);
    assert.deepEqual(splits('devtools again'), first);
  });

  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    await storeNotes(test, user, [
      'The roadtrip to the coast took two days because of the storm.',
      'React dev tools show a default-exported component as Unknown, so we use named exports.',
      'The bookshelf in the hall holds the printed manuals.',
      'A book on the top shelf explains the release process.',
      'Reports are read from the database replica, never the primary.',
      'Nightly jobs write their logs to the shared bucket.',
    ]);
  });
  after(() => test.cleanup());

  const first = async (query: string): Promise<string | undefined> =>
    (await test.core.recall({ user_id: user, query }, { logAccess: false })).memories[0]?.content;

  it('finds a memory that writes the compound as one word when the question writes it apart', async () => {
    assert.match((await first('what happened on the road trip')) ?? '', /roadtrip/);
  });

  it('finds a memory that writes it apart when the question writes it as one word no memory has', async () => {
    const result = await test.core.recall({ user_id: user, query: 'why devtools shows Unknown' }, { logAccess: false });
    assert.match(result.memories[0]?.content ?? '', /dev tools/);
    assert.match(result.memories[0]?.why_matched ?? '', /devtools ← dev tools/);
  });

  it('does not split a word the memories use: "bookshelf" is not any memory with "book" and "shelf"', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'bookshelf', min_similarity: 0 },
      { logAccess: false },
    );
    assert.deepEqual(
      result.memories.map((memory) => memory.content),
      ['The bookshelf in the hall holds the printed manuals.'],
    );
  });
});
