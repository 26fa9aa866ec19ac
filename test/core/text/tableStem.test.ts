import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { termOf } from '../../../src/core/text/analyzer.ts';
import { stemUncached } from '../../../src/core/text/stemmer.ts';
import { isStopWord } from '../../../src/core/text/stopwords.ts';
import { LANGUAGE_CLASSES } from '../../../src/core/text/vocabulary/languageClasses.ts';
import { softwareVocabulary } from '../../../src/core/text/vocabulary/softwareVocabulary.ts';
import { tableStem } from '../../../src/core/text/vocabulary/tableStem.ts';
import { GENERIC_WORDS, WORDNET_NOT_DERIVED } from '../../../src/core/text/vocabulary/wordnetSynonyms.ts';

/** The lookups as the first query built them before issue 31: every word stemmed there. */
const stemmedThen = (word: string): string | null => termOf({ text: word, kind: 'word' });
/** As they are built now: the stems read from the generated table. */
const readNow = (word: string): string | null => (isStopWord(word) ? null : tableStem(word));

/** "generic word stem" -> its words, as isGenericInflection (queryConcepts.ts) groups them. */
function genericByTerm(termOfWord: (word: string) => string | null): Map<string, string[]> {
  const byTerm = new Map<string, string[]>();
  for (const word of GENERIC_WORDS.split(' ')) {
    const term = termOfWord(word);
    if (term !== null) byTerm.set(term, [...(byTerm.get(term) ?? []), word]);
  }
  return byTerm;
}

/** Each vocabulary phrase and alternative as its index terms (stop words dropped), in table order. */
function vocabularyTerms(termOfWord: (word: string) => string | null): string[] {
  const lines: string[] = [];
  for (const [key, entry] of softwareVocabulary()) {
    const terms = (words: readonly string[]): string => words.map((word) => termOfWord(word) ?? '-').join(' ');
    lines.push(`${key}: ${terms(entry.words)} -> ${entry.alternatives.map(({ words }) => terms(words)).join(', ')}`);
  }
  return lines;
}

/**
 * The generated stems stand for the stemmer (issue 31): every lookup the first query builds from a
 * whole table is the same when its words' stems are read from tableStems.ts as when each is
 * stemmed, over every entry of every table, so no answer changes. (That the table is what the
 * generator makes of today's stemmer and tables: generatedVocabulary.test.ts.)
 */
describe('the generated stems of the tables', () => {
  it('group the generic words by stem as stemming each did', () => {
    const then = genericByTerm(stemmedThen);
    assert.ok(then.size > 200);
    assert.deepEqual(genericByTerm(readNow), then);
  });

  it('give every software vocabulary phrase and alternative the terms stemming gave', () => {
    const then = vocabularyTerms(stemmedThen);
    assert.ok(then.length > 300);
    assert.deepEqual(vocabularyTerms(readNow), then);
  });

  it('give the shorter words of the not-derived pairs and every language class member their stems', () => {
    const words = [
      ...WORDNET_NOT_DERIVED.split('\n').flatMap((line) => line.slice(line.indexOf(':') + 1).split(',')),
      ...LANGUAGE_CLASSES.split('\n').flatMap((line) => line.slice(line.indexOf(':') + 1).split(',')),
    ];
    assert.ok(words.length > 900);
    assert.deepEqual(
      words.map((word) => tableStem(word)),
      words.map((word) => stemUncached(word)),
    );
  });

  it('stems a word of no table as the stemmer does', () => {
    for (const word of ['deployments', 'rollbacks', 'caching', 'xyzzies'])
      assert.equal(tableStem(word), stemUncached(word));
  });
});
