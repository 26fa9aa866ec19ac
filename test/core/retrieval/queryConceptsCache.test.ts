import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { queryConcepts, sharedQueryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import { restrictVocabularyForEvaluation } from '../../../src/core/text/vocabulary/softwareVocabulary.ts';

const memberTerms = (query: string, term: string): string[] =>
  (queryConcepts(query).find((concept) => concept.term === term)?.alternatives ?? [])
    .filter((alternative) => alternative.kind === 'member')
    .map((alternative) => alternative.terms.join(' '));

/** Expanded queries are kept by text (issue 31): a kept expansion must never be stale nor shared. */
describe('query concepts cache', () => {
  afterEach(() => restrictVocabularyForEvaluation(null));

  it('answers a repeated query with the same concepts, as copies a caller may change', () => {
    const first = queryConcepts('which linter do we run');
    const expected = structuredClone(first);
    first[0].weight = 99;
    first[0].alternatives.length = 0;
    first
      .find((concept) => concept.term === 'linter')!
      .alternatives.push({
        terms: ['planted'],
        credit: 1,
        kind: 'synonym',
        label: 'planted',
      });
    const second = queryConcepts('which linter do we run');
    assert.deepEqual(second, expected);
    second.find((concept) => concept.term === 'linter')!.alternatives[0].terms.push('planted');
    assert.deepEqual(queryConcepts('which linter do we run'), expected);
  });

  it('gives recall the kept concepts themselves, equal to the copies, and unchanged by changing a copy', () => {
    const query = 'which database do we back up nightly';
    const shared = sharedQueryConcepts(query);
    // No copy per call: recall reads the cache (a copy was about a seventh of what an expansion allocated).
    assert.equal(sharedQueryConcepts(query), shared);
    assert.ok(shared[0].alternatives.length > 0, 'the first word has bridges to change');
    const copy = queryConcepts(query);
    assert.deepEqual(copy, shared);
    copy[0].alternatives.forEach((alternative) => alternative.terms.push('planted'));
    assert.ok(shared[0].alternatives.every((alternative) => !alternative.terms.includes('planted')));
  });

  it('expands a query again when the vocabulary changes, and again when it is restored', () => {
    const query = 'which linter do we run';
    assert.ok(memberTerms(query, 'linter').includes('eslint'), 'the product vocabulary names eslint a linter');
    restrictVocabularyForEvaluation(() => false);
    assert.deepEqual(memberTerms(query, 'linter'), [], 'without the vocabulary, no member bridge');
    restrictVocabularyForEvaluation(null);
    assert.ok(memberTerms(query, 'linter').includes('eslint'));
  });
});
