import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SortedLineTable } from '../../../src/core/text/vocabulary/sortedLineTable.ts';
import {
  wordnetAttributes,
  wordnetDerivations,
  wordnetSynonyms,
} from '../../../src/core/text/vocabulary/synonymTable.ts';
import {
  WORDNET_ATTRIBUTES,
  WORDNET_DERIVATIONS,
  WORDNET_DERIVED_FROM,
  WORDNET_SYNONYMS,
} from '../../../src/core/text/vocabulary/wordnetSynonyms.ts';

/** The tables as the expansion read them before (a Map parsed at the first query): the answers must not move. */
function parsed(text: string): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) table.set(line.slice(0, colon), line.slice(colon + 1).split(','));
  }
  return table;
}

test('a sorted line table finds the first, last and every middle line, and nothing between them', () => {
  const table = new SortedLineTable('apple:a,b\nbanana:c\ncherry:d,e,f\ndate:g');
  assert.deepEqual(table.get('apple'), ['a', 'b']);
  assert.deepEqual(table.get('banana'), ['c']);
  assert.deepEqual(table.get('cherry'), ['d', 'e', 'f']);
  assert.deepEqual(table.get('date'), ['g']);
  for (const missing of ['', 'aardvark', 'apples', 'b', 'bananas', 'coconut', 'zebra', 'a', 'g'])
    assert.deepEqual(table.get(missing), [], missing);
});

test('a single-line and an empty table', () => {
  assert.deepEqual(new SortedLineTable('only:x').get('only'), ['x']);
  assert.deepEqual(new SortedLineTable('only:x').get('other'), []);
  assert.deepEqual(new SortedLineTable('').get('any'), []);
});

test('synonyms and attributes answer every word exactly as the parsed tables did', () => {
  for (const [lookup, text] of [
    [wordnetSynonyms, WORDNET_SYNONYMS],
    [wordnetAttributes, WORDNET_ATTRIBUTES],
  ] as const) {
    const table = parsed(text);
    assert.ok(table.size > 100);
    for (const [word, values] of table) assert.deepEqual(lookup(word), values, word);
    for (const word of ['zzz', 'aaa', 'databases', 'deploying']) assert.deepEqual(lookup(word), table.get(word) ?? []);
  }
});

test('derivations read both ways, in the order the parsed two-way table gave them', () => {
  const bothWays = new Map<string, string[]>();
  for (const [first, others] of parsed(WORDNET_DERIVATIONS)) {
    for (const other of others) {
      bothWays.set(first, [...(bothWays.get(first) ?? []), other]);
      bothWays.set(other, [...(bothWays.get(other) ?? []), first]);
    }
  }
  assert.ok(bothWays.size > 1000);
  for (const [word, values] of bothWays) assert.deepEqual(wordnetDerivations(word), values, word);
  assert.deepEqual([...wordnetDerivations('allergic')], ['allergy']);
  assert.deepEqual(wordnetDerivations('zzz'), []);
});

test('every table answers every key, its prefixes, its extensions and unrelated strings as the parsed table does', () => {
  const random = (() => {
    let state = 12345;
    return () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  })();
  const alphabet = 'abcxyz:AZ09-é\n';
  for (const text of [WORDNET_SYNONYMS, WORDNET_ATTRIBUTES, WORDNET_DERIVATIONS, WORDNET_DERIVED_FROM]) {
    const reference = parsed(text);
    const probes = new Set<string>(['', 'a', 'zzzz', '{']);
    for (const key of reference.keys()) {
      probes.add(key);
      for (let cut = 1; cut < key.length; cut++) probes.add(key.slice(0, cut));
      for (const tail of ['a', 'z', ':', 's', '0', 'É']) probes.add(key + tail);
    }
    for (let index = 0; index < 2000; index++) {
      let word = '';
      for (let length = 1 + Math.floor(random() * 8); length > 0; length--)
        word += alphabet[Math.floor(random() * alphabet.length)];
      probes.add(word);
    }
    // Scanning (never indexed), indexed from the first lookup, and switching to the index partway.
    for (const indexAfter of [Number.POSITIVE_INFINITY, 0, 500]) {
      const table = new SortedLineTable(text, { indexAfter });
      for (const word of probes)
        assert.deepEqual(
          table.get(word),
          reference.get(word) ?? [],
          `${JSON.stringify(word)}, index after ${indexAfter}`,
        );
    }
  }
});

test('a line without a colon or a table ending in a newline finds nothing it should not, either way', () => {
  for (const indexAfter of [Number.POSITIVE_INFINITY, 0]) {
    const table = new SortedLineTable('apple:a\nbanana:b\n', { indexAfter });
    assert.deepEqual(table.get('banana'), ['b']);
    assert.deepEqual(table.get('cherry'), []);
    assert.deepEqual(new SortedLineTable('apple:a\nbanana', { indexAfter }).get('banana'), []);
    assert.deepEqual(new SortedLineTable('apple:a\nbanana', { indexAfter }).get('bananas'), []);
    assert.deepEqual(new SortedLineTable('', { indexAfter }).get('any'), []);
  }
});
