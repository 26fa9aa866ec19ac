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

  it("keeps each word's own alternatives for the next query with it, unchanged by a query that raised one", () => {
    // "unit" alone links rspec through Debian's descriptions (0.5); "unit test" names rspec a member (0.75).
    const rspec = (query: string): { credit: number; kind: string } | undefined => {
      const found = queryConcepts(query)
        .find((concept) => concept.term === 'unit')
        ?.alternatives.find((alternative) => alternative.terms.join(' ') === 'rspec');
      return found && { credit: found.credit, kind: found.kind };
    };
    const alone = structuredClone(queryConcepts('unit'));
    assert.deepEqual(rspec('unit'), { credit: 0.5, kind: 'described' });
    assert.deepEqual(rspec('which unit test runner'), { credit: 0.75, kind: 'member' });
    // Another text, so the query's own cache does not answer: the word's kept alternatives do.
    assert.deepEqual(queryConcepts('Unit'), alone);
    assert.deepEqual(rspec('the unit'), { credit: 0.5, kind: 'described' });
  });

  it("answers each word with its own kept alternatives, never another word's", () => {
    // Word forms, a spelling, a made-up word's splits, and vocabulary phrases ("linter", "database"):
    // each kind of kept bridge (wordBridges, ownAlternatives, phraseBridges) is asked.
    const words = ['linter', 'unit', 'deploys', 'colour', 'database', 'kalomire'];
    const first = new Map(words.map((word) => [word, structuredClone(queryConcepts(word))]));
    for (const [word, concepts] of first) {
      assert.ok(concepts[0].alternatives.length > 0, `${word} has alternatives`);
      for (const alternative of concepts[0].alternatives)
        assert.ok(alternative.label.startsWith(`${word} ←`), `${alternative.label} is one of ${word}'s`);
    }
    // Again in the other order, each under another text: from the kept words, the same answers.
    for (const word of [...words].reverse()) assert.deepEqual(queryConcepts(`${word}?`), first.get(word));
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
