import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25Idf } from '../../../src/core/text/bm25.ts';
import { queryConcepts, type QueryConcept } from '../../../src/core/retrieval/queryConcepts.ts';
import { conceptInformation, coverageOf, GENERIC_WORD_INFORMATION } from '../../../src/core/retrieval/queryCoverage.ts';

/** The absolute text scale: the share of the query's information (IDF-weighted concepts) a memory covers. */
describe('query coverage', () => {
  const stats = {
    documents: 100,
    frequencies: new Map([
      ['databas', 40],
      ['backup', 2],
      ['nightli', 5],
    ]),
  };

  it('weighs each concept by its IDF, unseen words most', () => {
    const concepts = queryConcepts('database backup zyxwvut');
    const information = conceptInformation(concepts, stats);
    assert.equal(information[0], bm25Idf(100, 40));
    assert.equal(information[1], bm25Idf(100, 2));
    assert.equal(information[2], bm25Idf(100, 0));
  });

  it('halves the information of a generic word', () => {
    const [set] = conceptInformation(queryConcepts('set'), stats);
    assert.equal(set, GENERIC_WORD_INFORMATION * bm25Idf(100, 0));
  });

  it('scores a full match 1, a common word alone far below a rare one, nothing 0', () => {
    const concepts = queryConcepts('database backup');
    const information = conceptInformation(concepts, stats);
    assert.equal(coverageOf(concepts, information, new Set(['databas', 'backup'])).value, 1);
    const common = coverageOf(concepts, information, new Set(['databas'])).value;
    const rare = coverageOf(concepts, information, new Set(['backup'])).value;
    const total = bm25Idf(100, 40) + bm25Idf(100, 2);
    assert.equal(common, bm25Idf(100, 40) / total);
    assert.equal(rare, bm25Idf(100, 2) / total);
    assert.ok(common < 0.3 && rare > 0.7);
    assert.equal(coverageOf(concepts, information, new Set(['other'])).value, 0);
  });

  it('credits a concept covered through a bridge with the bridge credit and names the bridge', () => {
    const concepts = queryConcepts('typescript backup');
    const information = conceptInformation(concepts, stats);
    const bridged = coverageOf(concepts, information, new Set(['ts', 'backup']));
    const credit = concepts[0].alternatives.find((alternative) => alternative.terms.join(' ') === 'ts')!.credit;
    assert.equal(bridged.value, (credit * information[0] + information[1]) / (information[0] + information[1]));
    assert.deepEqual(bridged.bridges, ['typescript ← ts']);
  });

  it('counts a phrase alternative only when the memory has all its words', () => {
    // No shipped table has a phrase alternative now; the rule holds for any source that adds one.
    const concepts: QueryConcept[] = [
      {
        term: 'pr',
        weight: 1,
        generic: false,
        topical: true,
        alternatives: [{ terms: ['pull', 'request'], credit: 0.9, kind: 'abbreviation', label: 'pr ← pull request' }],
      },
    ];
    const information = conceptInformation(concepts, stats);
    assert.equal(coverageOf(concepts, information, new Set(['pull'])).value, 0);
    assert.ok(coverageOf(concepts, information, new Set(['pull', 'request'])).value > 0.8);
  });
});
