import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SortedKeyIndex, sortedOrder } from '../../../src/stores/common/sortedKeyIndex.ts';
import {
  EdgeParts,
  NumberedStrings,
  PackedStrings,
  StringColumn,
  stringsOf,
} from '../../../src/stores/common/stringList.ts';

/** A table as a file holds it: the strings' characters one after another and their lengths. */
function packed(strings: readonly string[]): PackedStrings {
  const table = PackedStrings.fromLengths(
    strings.join(''),
    Int32Array.from(strings, (value) => value.length),
  );
  assert.ok(table !== null);
  return table;
}

// Empty, one character, the lone surrogate halves a JavaScript string may hold, and code units
// whose order differs from code point order (U+FF5E against U+1F600's high surrogate).
const STRINGS = ['', 'a', 'ab', 'abc', 'b', 'mem_ü', '\ud800', '\udfff', '～', '😀', 'z', 'za'];

test('a packed table gives back each string and nothing outside it', () => {
  const table = packed(STRINGS);
  assert.equal(table.length, STRINGS.length);
  assert.deepEqual(stringsOf(table), STRINGS);
  for (const outside of [-1, STRINGS.length, 1.5, Number.NaN])
    assert.equal(table.at(outside), undefined, String(outside));
});

test('lengths that are negative or do not add up to the characters are refused', () => {
  assert.equal(PackedStrings.fromLengths('abc', Int32Array.from([1, 1])), null);
  assert.equal(PackedStrings.fromLengths('abc', Int32Array.from([2, 2])), null);
  assert.equal(PackedStrings.fromLengths('abc', Int32Array.from([4, -1])), null);
  assert.deepEqual(stringsOf(PackedStrings.fromLengths('', new Int32Array(0))!), []);
  assert.equal(PackedStrings.fromLengths('abc', Int32Array.from([3]), new Uint8Array(2)), null);
});

test("a table compares through the file's own code units, Latin-1 bytes or UTF-16", () => {
  const latin1 = PackedStrings.fromLengths('äz', Int32Array.from([1, 1]), Uint8Array.from([0xe4, 0x7a]))!;
  assert.ok(latin1.compare(0, 1) > 0);
  assert.equal(latin1.compareTo(0, 'ä'), 0);
  assert.ok(latin1.compareTo(1, 'ä') < 0);
  const wide = PackedStrings.fromLengths('😀～', Int32Array.from([2, 1]), Uint16Array.from([0xd83d, 0xde00, 0xff5e]))!;
  assert.ok(wide.compare(0, 1) < 0);
  assert.equal(wide.compareTo(0, '😀'), 0);
});

test('compare and compareTo in place order every pair as JavaScript string order does', () => {
  const table = packed(STRINGS);
  for (let a = 0; a < STRINGS.length; a++)
    for (let b = 0; b < STRINGS.length; b++) {
      const expected = STRINGS[a]! < STRINGS[b]! ? -1 : STRINGS[a] === STRINGS[b] ? 0 : 1;
      assert.equal(
        Math.sign(table.compare(a, b)),
        expected,
        `${JSON.stringify(STRINGS[a])} vs ${JSON.stringify(STRINGS[b])}`,
      );
      assert.equal(
        Math.sign(table.compareTo(a, STRINGS[b]!)),
        expected,
        `${JSON.stringify(STRINGS[a])} vs the key ${JSON.stringify(STRINGS[b])}`,
      );
    }
});

/** What forEachEdgeHolder must report: (index, part) for each longer string that begins or ends with the part, in index then part order. */
function edgeHoldersOf(strings: readonly string[], parts: readonly string[], from = 0): string[] {
  const found: string[] = [];
  strings.forEach((value, index) => {
    if (index < from) return;
    parts.forEach((part, at) => {
      if (value.length > part.length && (value.startsWith(part) || value.endsWith(part))) found.push(`${index}:${at}`);
    });
  });
  return found;
}

test('a one-pass edge scan reports exactly the longer strings that begin or end with each part', () => {
  const words = ['rate', 'ratelimit', 'limiterate', 'pirate', 'karate', 'berated', 'rat', 'xrate', 'ü-rateü', 'ratü'];
  const table = packed(words);
  const parts = ['rate', 'rat', 'ate', 'limit', 'x', 'ü', 'tü'];
  for (const from of [0, 3, words.length]) {
    const found: string[] = [];
    table.forEachEdgeHolder(null, 1, from, words.length, new EdgeParts(parts), (index, at) =>
      found.push(`${index}:${at}`),
    );
    assert.deepEqual(found, edgeHoldersOf(words, parts, from), `from ${from}`);
  }
  assert.throws(() => new EdgeParts(Array.from({ length: 32 }, (_, at) => `part${at}`)), RangeError);
  assert.throws(() => new EdgeParts(['']), RangeError);
  assert.throws(() => new EdgeParts([]), RangeError);
});

test('the edge scan agrees with testing each string for each part, over random tables, columns and parts', () => {
  let seed = 7;
  const random = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * below);
  };
  // Few letters, so parts are often at an edge; Latin-1, a wide letter and a surrogate pair among them.
  const letters = ['a', 'b', 'c', 'é', 'ж', '😀'];
  const word = (): string => Array.from({ length: 1 + random(6) }, () => letters[random(letters.length)]).join('');
  for (let round = 0; round < 60; round++) {
    const strings = Array.from({ length: 1 + random(40) }, word);
    const parts = [...new Set(Array.from({ length: 1 + random(12) }, word))];
    const column = new StringColumn(
      new NumberedStrings(
        packed(strings),
        Int32Array.from(strings, (_, at) => at),
      ),
    );
    const expected = strings.slice();
    for (let change = random(4); change > 0; change--) {
      const at = random(expected.length + 1);
      expected[at] = word();
      column.set(at, expected[at]!);
    }
    const from = random(expected.length);
    const found: string[] = [];
    column.forEachEdgeHolder(from, new EdgeParts(parts), (index, at) => found.push(`${index}:${at}`));
    assert.deepEqual(found, edgeHoldersOf(expected, parts, from), `round ${round}`);
  }
});

test('numbered strings read a column of string numbers with a stride, and compare and check order through the table', () => {
  const table = packed(['x', 'mem_b', 'layer', 'mem_a', 'other']);
  // Rows of (id, layer): ids in column 0.
  const rows = Int32Array.from([1, 2, 3, 2, 0, 4]);
  const ids = new NumberedStrings(table, rows, 2);
  assert.equal(ids.length, 3);
  assert.deepEqual(stringsOf(ids), ['mem_b', 'mem_a', 'x']);
  assert.equal(ids.at(3), undefined);
  assert.ok(ids.compareTo(0, 'mem_a') > 0);
  assert.ok(ids.compareTo(1, 'x') < 0);
  assert.equal(ids.compareTo(1, 'mem_a'), 0);
  assert.deepEqual(ids.firstDisorder(null), { rank: 1, repeated: false });
  assert.equal(ids.firstDisorder(Int32Array.from([1, 0, 2])), null);
  assert.deepEqual(ids.firstDisorder(Int32Array.from([1, 1, 2])), { rank: 1, repeated: true });
});

test('a sorted key index over strings read in place finds what it finds over the same array, and refuses what it refuses', () => {
  const keys = ['mem_b', 'mem_a', 'mem_ü', 'mem_10', 'mem_9'];
  const order = sortedOrder(keys);
  const inPlace = new NumberedStrings(
    packed(keys),
    Int32Array.from(keys, (_, at) => at),
  );
  assert.equal(SortedKeyIndex.problemWith(inPlace, order), null);
  const index = new SortedKeyIndex(inPlace, order);
  keys.forEach((key, position) => assert.equal(index.get(key), position));
  for (const missing of ['mem_', 'mem_c', 'zzz']) assert.equal(index.get(missing), undefined);
  const twice = new NumberedStrings(packed(['a', 'b']), Int32Array.from([0, 1, 1]));
  assert.match(SortedKeyIndex.problemWith(twice, null)!, /"b" is there twice/);
  const unordered = new NumberedStrings(packed(['b', 'a']), Int32Array.from([0, 1]));
  assert.match(SortedKeyIndex.problemWith(unordered, null)!, /not in order at "a"/);
});

test('a column over a base keeps appended and replaced entries beside it, and the base is never written', () => {
  const base = new NumberedStrings(packed(['ratelimit', 'b', 'c']), Int32Array.from([0, 1, 2]));
  const column = new StringColumn(base);
  column.push('d');
  column.set(1, 'rate');
  column.set(4, 'e');
  assert.deepEqual(stringsOf(column), ['ratelimit', 'rate', 'c', 'd', 'e']);
  assert.deepEqual(stringsOf(base), ['ratelimit', 'b', 'c']);
  assert.throws(() => column.set(6, 'gap'), RangeError);
  assert.throws(() => column.set(-1, 'before'), RangeError);
  // In place for base entries, from the string for replaced and appended ones.
  column.set(2, 'pirate');
  const found: number[] = [];
  column.forEachEdgeHolder(0, new EdgeParts(['rate']), (index) => found.push(index));
  assert.deepEqual(found, [0, 2]);
});

test("a column's copy is not reached by later changes, nor the column by the copy's", () => {
  const column = new StringColumn(['a', 'b']);
  column.push('c');
  const copy = column.copy();
  column.set(0, 'changed');
  column.push('d');
  copy.set(2, 'copy');
  assert.deepEqual(stringsOf(copy), ['a', 'b', 'copy']);
  assert.deepEqual(stringsOf(column), ['changed', 'b', 'c', 'd']);
});
