import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { QueryConcept } from '../../../src/core/retrieval/queryConcepts.ts';
import { identifierWholesOf, withoutUnknownWholes } from '../../../src/core/retrieval/unknownIdentifiers.ts';
import { createTestCore, storeNotes, type TestCore } from '../../support/testCore.ts';

const concept = (term: string, weight: number): QueryConcept => ({
  term,
  weight,
  generic: false,
  topical: true,
  alternatives: [],
});
const stats = (known: Record<string, number>) => ({ documents: 100, frequencies: new Map(Object.entries(known)) });

describe('identifier wholes in a question', () => {
  it('are the identifiers written whole, each with its parts', () => {
    const wholes = identifierWholesOf(['replacement for golang-migrate', 'service-to-service auth', 'GraphQL']);
    assert.deepEqual(wholes.get('golang-migrate'), ['golang', 'migrat']);
    assert.deepEqual(wholes.get('service-to-service'), ['servic', 'servic'], 'stop words are no parts');
    assert.deepEqual(wholes.get('graphql'), ['graph', 'ql']);
    assert.equal(wholes.has('replac'), false, 'plain words are not wholes');
  });

  it('count for nothing when no memory has them and the memories have every part', () => {
    const wholes = identifierWholesOf(['golang-migrate']);
    const concepts = [concept('golang-migrate', 1.5), concept('golang', 0.5), concept('migrat', 0.5)];
    const weights = (known: Record<string, number>) =>
      withoutUnknownWholes(concepts, stats(known), wholes).map((item) => item.weight);
    assert.deepEqual(weights({ golang: 2, migrat: 5 }), [0, 0.5, 0.5], 'written apart in the store');
    assert.deepEqual(weights({ migrat: 5 }), [1.5, 0.5, 0.5], 'a part no memory has: something never stored');
    assert.deepEqual(
      weights({ 'golang-migrate': 1, golang: 2, migrat: 5 }),
      [1.5, 0.5, 0.5],
      'a known whole keeps its weight',
    );
  });
});

/** A memory that writes the question's identifier another way answers it. */
describe('recall of an identifier written another way', () => {
  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    await storeNotes(test, user, [
      'Calls from one service to another carry a short-lived signed token.',
      'The web frontend is built with Vite and deployed to a CDN.',
      'Logs are shipped to Loki and kept for thirty days.',
      'The ledger keeps every schema change in a numbered migration file.',
      'Release notes are written in the changelog before tagging.',
      'Alerts page the on-call engineer through PagerDuty.',
    ]);
  });
  after(() => test.cleanup());

  it('answers at the default floor when the memory has every part of an identifier no memory writes whole', async () => {
    const result = await test.core.recall({ user_id: user, query: 'service-to-service auth token' });
    assert.match(result.memories[0]?.content ?? '', /signed token/);
  });

  it('still abstains on an identifier with a part no memory has', async () => {
    const result = await test.core.recall({ user_id: user, query: 'GraphQL schema naming' });
    assert.equal(result.memories.length, 0);
  });
});
