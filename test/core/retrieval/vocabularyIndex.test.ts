import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { queryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import {
  buildVocabularyIndex,
  productVocabularyIndex,
  vocabularyIndexFromLines,
  vocabularyIndexLines,
} from '../../../src/core/retrieval/vocabularyIndex.ts';
import {
  restrictVocabularyForEvaluation,
  softwareVocabulary,
  vocabularyGroups,
} from '../../../src/core/text/vocabulary/softwareVocabulary.ts';

/*
 * The product vocabulary's index is generated at build time (vocabularyIndexTable.ts) so that a
 * fresh process's first recall does not build it (issue 31); generatedVocabulary.test.ts checks the
 * file's bytes, these check what it means and that an evaluation's restricted vocabulary is not
 * answered from it.
 */
const VOCABULARY_KINDS = new Set(['abbreviation', 'category', 'member', 'equivalent']);
const QUESTION = 'golang test runner, log in to k8s';

/** The vocabulary's own alternatives of a query's concepts, by kind and label. */
function vocabularyAlternatives(query: string): string[] {
  return queryConcepts(query).flatMap((concept) =>
    concept.alternatives
      .filter((alternative) => VOCABULARY_KINDS.has(alternative.kind))
      .map((alternative) => `${alternative.kind}: ${alternative.label}`),
  );
}

describe('the software vocabulary index', () => {
  after(() => restrictVocabularyForEvaluation(null));

  it('read from the generated table is the index the vocabulary builds', () => {
    assert.deepStrictEqual(productVocabularyIndex(), buildVocabularyIndex(softwareVocabulary()));
  });

  it('comes back from its lines whole: shared keys, particle phrases and the first terms', () => {
    // Every other group, so the lines are not the committed table's.
    const groups = vocabularyGroups().filter((_, at) => at % 2 === 0);
    restrictVocabularyForEvaluation(() => true, groups);
    const built = buildVocabularyIndex(softwareVocabulary());
    assert.ok(built.byWords.size > 0 || built.byTerms.size > 0);
    assert.deepStrictEqual(vocabularyIndexFromLines(vocabularyIndexLines(built).join('\n')), built);
  });

  it('answers from the restricted vocabulary while an evaluation restricts it, and from the product one after', () => {
    restrictVocabularyForEvaluation(null);
    const product = vocabularyAlternatives(QUESTION);
    assert.ok(
      product.some((label) => label.startsWith('member: test runner')),
      product.join('; '),
    );
    restrictVocabularyForEvaluation(() => false);
    assert.deepEqual(vocabularyAlternatives(QUESTION), [], 'no group kept: no vocabulary alternative');
    const testGroups = (group: { id: string }) => group.id.includes('test runner');
    restrictVocabularyForEvaluation(testGroups);
    const restricted = vocabularyAlternatives(QUESTION);
    assert.ok(restricted.length > 0 && restricted.every((label) => !label.includes('k8s')), restricted.join('; '));
    restrictVocabularyForEvaluation(null);
    assert.deepEqual(vocabularyAlternatives(QUESTION), product);
  });
});
