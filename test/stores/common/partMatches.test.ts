import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWordPart, partsToLookFor } from '../../../src/core/text/wordParts.ts';
import type { PartMatch } from '../../../src/core/ports/memoryStore.ts';
import { LexicalIndex } from '../../../src/stores/common/lexicalIndex.ts';
import { EdgeParts } from '../../../src/stores/common/stringList.ts';

/**
 * LexicalIndex.partMatches against a test of every word of every document: a document's words are
 * read from the arena, or from a loaded index's postings (WordPartIndex, EdgeParts batches of 31).
 * Random indexes built in place, loaded, and loaded then edited; parts held by many words, by none,
 * and more than EdgeParts.MAX of them in one call.
 */

function randomSource(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const STEMS = ['cach', 'hook', 'limit', 'stamp', 'time', 'rate', 'pira', 'sessio', 'büro', 'логин', 'запрос', 'tiempo'];
const AFFIXES = ['', '', 'web', 'mem', 'pre', 'un', 'er', 's', 'ed', 'ing', 'ов', 'ähn', '2'];

/** A word that is often a stem with something before or after it, sometimes with a digit (no compound then). */
function randomWord(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const stem = pick(STEMS);
  return random() < 0.5 ? pick(AFFIXES) + stem : stem + pick(AFFIXES);
}

function randomDocument(random: () => number): Map<string, number> {
  const terms = new Map<string, number>();
  const count = 1 + Math.floor(random() * 10);
  for (let i = 0; i < count; i++) terms.set(randomWord(random), 1);
  return terms;
}

/** What partMatches must answer, from the documents' own words. */
function expectedMatches(
  documents: ReadonlyMap<string, Map<string, number>>,
  docIds: readonly string[],
  asked: readonly string[],
): PartMatch[][] {
  const parts = partsToLookFor(asked);
  return docIds.map((docId) => {
    const words = [...(documents.get(docId)?.keys() ?? [])];
    return parts.flatMap((part) => {
      const holders = words.filter((word) => isWordPart(part, word)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return holders.length === 0 ? [] : [{ part, term: holders[0] }];
    });
  });
}

function randomParts(random: () => number, many: boolean): string[] {
  const count = many ? EdgeParts.MAX + 1 + Math.floor(random() * 8) : 1 + Math.floor(random() * 6);
  const parts = new Set<string>();
  while (parts.size < count) {
    const roll = random();
    // Stems (held by many words), words no document holds, and filler that only makes the list long.
    parts.add(
      roll < 0.5
        ? STEMS[Math.floor(random() * STEMS.length)]
        : roll < 0.7
          ? `zq${Math.floor(random() * 1000)}x`
          : `filler${String.fromCharCode(97 + Math.floor(random() * 26))}${parts.size}`.replace(/\d/g, 'k'),
    );
  }
  return [...parts];
}

test('partMatches gives what a test of every word of each document gives, loaded, edited, with more than 31 parts', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const random = randomSource(seed);
    const documents = new Map<string, Map<string, number>>();
    let index = new LexicalIndex();
    const write = (count: number): void => {
      for (let i = 0; i < count; i++) {
        const id = `d${Math.floor(random() * 120)}`;
        if (random() < 0.1) {
          index.remove(id);
          documents.delete(id);
          continue;
        }
        const terms = randomDocument(random);
        index.upsert(id, { terms, length: terms.size });
        documents.set(id, terms);
      }
    };
    write(150);
    // Every other seed is saved and loaded, then edited: documents in the postings only, and in the arena.
    if (seed % 2 === 0) index = LexicalIndex.fromDocuments(index.exportDocuments());
    if (seed % 4 === 0) write(20);
    for (let query = 0; query < 10; query++) {
      // Each id once, as a search's hits are; some never stored.
      const docIds = [
        ...new Set(Array.from({ length: 1 + Math.floor(random() * 30) }, () => `d${Math.floor(random() * 130)}`)),
      ];
      const asked = randomParts(random, query % 4 === 3);
      assert.deepEqual(
        index.partMatches(docIds, asked),
        expectedMatches(documents, docIds, asked),
        `seed ${seed}, query ${query}: ${asked.join(' ')}`,
      );
    }
  }
});
