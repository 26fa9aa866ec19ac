import assert from 'node:assert/strict';
import { test } from 'node:test';
import { genericWords } from '../../../src/core/text/vocabulary/synonymTable.ts';
import {
  derivedForms,
  otherSpelling,
  wordFormVariants,
  wordsWithVariantIn,
} from '../../../src/core/text/vocabulary/wordForms.ts';
import { WORDNET_SYNONYMS } from '../../../src/core/text/vocabulary/wordnetSynonyms.ts';

/**
 * wordsWithVariantIn runs the variant rules backwards (query expansion asks it which words are a
 * generic word in another form): it must name exactly the words whose variants, asked forwards,
 * reach a target, or a split part or query word would change its generic flag.
 */
function words(): string[] {
  const tableWords = WORDNET_SYNONYMS.split('\n').flatMap((line) => line.split(/[:,]/));
  const base = [...new Set([...tableWords, ...genericWords()])].filter((word) => word.length > 0);
  const around = base.flatMap((word) => {
    const spelling = otherSpelling(word);
    return [
      word,
      ...derivedForms(word),
      ...(spelling === null ? [] : [spelling, otherSpelling(spelling) ?? '']),
      `${word}s`,
      `${word}d`,
      word[0].toUpperCase() + word.slice(1),
    ];
  });
  const madeUp = Array.from({ length: 2000 }, (_, index) => `kert${index.toString(36)}our`);
  return [...new Set([...around, ...madeUp, 'chose', 'went', 'colour', 'programme', 'centres', 'licence'])];
}

function forwards(targets: ReadonlySet<string>, word: string): boolean {
  return wordFormVariants(word).some((variant) => targets.has(variant));
}

test('the words with a generic variant, worked out backwards, are those whose variants reach one', () => {
  const targets = new Set(genericWords());
  const found = wordsWithVariantIn(targets);
  for (const word of words()) assert.equal(found.has(word), forwards(targets, word), word);
  for (const word of ['chose', 'went', 'took']) assert.ok(found.has(word), `${word} is a form of a generic word`);
});

test('the same holds for any set of targets, spellings and plurals included', () => {
  const targets = new Set(['color', 'center', 'program', 'license', 'mouse', 'analyze', 'catalog', 'travel']);
  const found = wordsWithVariantIn(targets);
  for (const word of words()) assert.equal(found.has(word), forwards(targets, word), word);
  for (const word of ['colour', 'licence', 'mice', 'analyse', 'catalogue']) assert.ok(found.has(word), word);
});
