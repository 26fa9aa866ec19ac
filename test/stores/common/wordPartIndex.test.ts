import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWordPart } from '../../../src/core/text/wordParts.ts';
import { NumberedStrings, PackedStrings, StringColumn } from '../../../src/stores/common/stringList.ts';
import { WordPartIndex } from '../../../src/stores/common/wordPartIndex.ts';

/** Term names as a loaded index keeps them: a table read in place under a column that appends. */
function loadedNames(names: readonly string[]): StringColumn {
  const table = PackedStrings.fromLengths(
    names.join(''),
    Int32Array.from(names, (name) => name.length),
  )!;
  return new StringColumn(
    new NumberedStrings(
      table,
      Int32Array.from(names, (_, at) => at),
    ),
  );
}

/** What termsHoldingEach must answer: for each part, the ids of the names it is a word part of, ascending. */
function holdersOf(names: StringColumn, parts: readonly string[]): number[][] {
  return parts.map((part) => {
    if (part.length < 4) return [];
    const ids: number[] = [];
    for (let id = 0; id < names.length; id++) if (isWordPart(part, names.at(id)!)) ids.push(id);
    return ids;
  });
}

test('the parts of one call are found in one pass, each with the ids a test of every name gives', () => {
  const names = loadedNames([
    'ratelimit',
    'limit',
    'pirate',
    'rate',
    'rate2',
    'karate',
    'timestamp',
    'stamp',
    'über',
    'überrate',
  ]);
  const index = new WordPartIndex();
  const parts = ['rate', 'limit', 'stamp', 'rat', 'rate', 'über'];
  assert.deepEqual(index.termsHoldingEach(parts, names), holdersOf(names, parts));
  assert.deepEqual(index.termsHoldingEach(parts, names)[0], [0, 2, 5, 9], 'a plain word only ("rate2" is not)');
});

test('names appended after a call are read for the parts asked before and for new ones alike', () => {
  const names = loadedNames(['ratelimit', 'pirate', 'memcache']);
  const index = new WordPartIndex();
  assert.deepEqual(index.termsHoldingEach(['rate', 'cache'], names), [[0, 1], [2]]);
  names.push('karate');
  names.push('cachebust');
  names.push('limitrate');
  const parts = ['cache', 'limit', 'rate'];
  assert.deepEqual(index.termsHoldingEach(parts, names), holdersOf(names, parts));
  assert.deepEqual(index.termsHoldingEach(parts, names), holdersOf(names, parts), 'asked again: nothing read twice');
});

test('more parts than one pass takes are read in several, and every answer is the same as one part at a time', () => {
  let seed = 11;
  const random = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * below);
  };
  const syllables = ['ra', 'te', 'li', 'mit', 'ca', 'che', 'ü', 'stamp'];
  const word = (): string => Array.from({ length: 2 + random(4) }, () => syllables[random(syllables.length)]).join('');
  const names = loadedNames(Array.from({ length: 400 }, word));
  const index = new WordPartIndex();
  const alone = new WordPartIndex();
  for (let round = 0; round < 5; round++) {
    const parts = Array.from({ length: 20 + random(40) }, word);
    const expected = holdersOf(names, parts);
    assert.deepEqual(index.termsHoldingEach(parts, names), expected, `round ${round}`);
    assert.deepEqual(
      parts.map((part) => alone.termsHoldingEach([part], names)[0]),
      expected,
      `round ${round}, one part a call`,
    );
    for (let added = random(30); added > 0; added--) names.push(word());
  }
});
