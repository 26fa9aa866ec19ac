import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getEncoding } from 'js-tiktoken';
import { MAX_SHORT_PIECE_CHARS, ShortPieceCounts } from '../../../src/core/tokens/shortPieceCounts.ts';
import { TiktokenCounter } from '../../../src/core/tokens/tokenCounter.ts';

/** A stand-in count that differs for every piece, so a piece answered with another's count shows. */
const distinct = new Map<string, number>();
const countOfPiece = (piece: string): number => {
  let count = distinct.get(piece);
  if (count === undefined) distinct.set(piece, (count = distinct.size + 1));
  return count;
};

describe('ShortPieceCounts', () => {
  it('keeps apart pieces whose packed characters look alike: leading NULs, the six-character split, Latin-1', () => {
    const table = new ShortPieceCounts();
    const pieces = [
      'a',
      '\0a',
      'a\0',
      '\0\0a',
      'abcdef',
      'abcdefg',
      'abcdef\0',
      '\0abcdef',
      'abcdefghijkl',
      'abcdefghijk',
      'bcdefghijkl',
      ' caf\u00e9',
      ' cafe',
      '\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff',
      '\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff',
    ];
    for (let round = 0; round < 2; round++)
      for (const piece of pieces) assert.equal(table.countOf(piece, countOfPiece), countOfPiece(piece), piece);
    assert.equal(table.size, pieces.length);
  });

  it('gives back the pieces it does not take: empty, longer than twelve characters, past U+00FF', () => {
    const table = new ShortPieceCounts();
    const never = (): number => assert.fail('not counted here');
    assert.equal(table.countOf('', never), -1);
    assert.equal(table.countOf('x'.repeat(MAX_SHORT_PIECE_CHARS + 1), never), -1);
    assert.equal(table.countOf(' na\u0131ve', never), -1);
    assert.equal(table.countOf('\u{1F600}', never), -1);
    assert.equal(table.size, 0);
  });

  it('counts each piece once while it is held, and again after the table was emptied when half full', () => {
    const table = new ShortPieceCounts();
    const counted = new Map<string, number>();
    const counting = (piece: string): number => {
      counted.set(piece, (counted.get(piece) ?? 0) + 1);
      return countOfPiece(piece);
    };
    for (let index = 0; index < 1_000; index++) table.countOf(` w${index}`, counting);
    for (let index = 0; index < 1_000; index++)
      assert.equal(table.countOf(` w${index}`, counting), countOfPiece(` w${index}`));
    assert.ok([...counted.values()].every((times) => times === 1));
    // 2^17 slots emptied at half: 70,000 pieces pass the point once, and every count stays right.
    for (let index = 0; index < 70_000; index++)
      assert.equal(table.countOf(`p${index}`, countOfPiece), countOfPiece(`p${index}`));
    assert.ok(table.size < 70_000);
  });

  it("makes the counter count as encode does for short pieces, new and held (the load's words, Latin-1, NULs)", () => {
    const encoding = getEncoding('cl100k_base');
    const counter = new TiktokenCounter();
    const syllables = ['ka', 'lo', 'be', 'gu', 'ti', 'sa', 'ha', 'mi', 'qu', 'x\u00e9', 'n\u00f1', '\0'];
    const texts: string[] = [];
    for (let index = 0; index < 3_000; index++) {
      const words = Array.from({ length: 1 + (index % 7) }, (_, at) => {
        let word = '';
        for (let part = 0; part <= (index + at) % 6; part++)
          word += syllables[(index * 7 + at * 3 + part) % syllables.length];
        return word;
      });
      texts.push(words.join(index % 3 === 0 ? ', ' : ' '));
    }
    for (let round = 0; round < 2; round++)
      for (const text of texts)
        assert.equal(counter.count(`${text} ${round}`), encoding.encode(`${text} ${round}`).length, text);
  });
});
