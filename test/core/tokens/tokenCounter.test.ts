import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { cl100kByteRanks, cl100kTables, utf8Bytes } from '../../../src/core/tokens/byteRanks.ts';
import { TiktokenCounter } from '../../../src/core/tokens/tokenCounter.ts';
import { MAX_SHORT_TOKEN_BYTES, shortTokenKey } from '../../../src/core/tokens/shortTokenRanks.ts';

const reference = new Tiktoken(cl100kBase);

const SAMPLES = [
  'hello world',
  'Plan: 1) migrate the users table 2) backfill emails 3) flip the feature flag',
  "We decided to use PostgreSQL — it's JSONB support we'll need; don't switch.",
  'function getUserById(id: string) {\n  return db.users.find((u) => u.id === id);\n}\n\n\n',
  '   leading and trailing spaces   \r\n\r\n tabs\tand 12345678 digits',
  'ünïcödé, 日本語のテキスト, emoji 🚀🔥 and <|endoftext|> as plain text',
  'C:\\Users\\me\\project\\src\\index.ts:42:7 error TS2322',
  '',
];

describe('TiktokenCounter', () => {
  it('counts exactly what cl100k_base encodes, piece cache or not', () => {
    const counter = new TiktokenCounter();
    for (const round of [1, 2]) {
      for (const text of SAMPLES) {
        assert.equal(
          counter.count(text),
          reference.encode(text, [], []).length,
          `round ${round}: ${JSON.stringify(text)}`,
        );
      }
    }
  });

  it('matches the reference on generated text with repeated pieces', () => {
    const counter = new TiktokenCounter();
    const words = ['deploy', 'the', 'gateway', 'kadoti', '42', 'x', '::', '\n', '  ', 'Ω', 'naïve'];
    let seed = 7;
    for (let sample = 0; sample < 200; sample++) {
      let text = '';
      for (let index = 0; index < 30; index++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += words[seed % words.length] + (seed % 3 === 0 ? '' : ' ');
      }
      assert.equal(counter.count(text), reference.encode(text, [], []).length, JSON.stringify(text));
    }
  });

  it('merges byte pairs as encode does on made-up words, long runs and every kind of character', () => {
    // Pieces the tables do not hold whole: each is merged pair by pair, where a wrong order or tie shows.
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-./\n\t',
      'é',
      'ß',
      'Ж',
      '日',
      '本',
      '🚀',
      '👩‍💻',
      '\u0301',
      '\u{1F600}',
    ];
    let seed = 11;
    const next = (bound: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % bound;
    };
    const counter = new TiktokenCounter();
    for (let sample = 0; sample < 400; sample++) {
      let text = '';
      const length = 1 + next(120);
      for (let index = 0; index < length; index++) text += alphabet[next(alphabet.length)];
      assert.equal(counter.count(text), reference.encode(text, [], []).length, JSON.stringify(text));
    }
    for (const word of ['supercalifragilisticexpialidocious', 'x'.repeat(300), 'ab'.repeat(97), 'kadotinemulivaresto'])
      assert.equal(counter.count(word), reference.encode(word, [], []).length, word);
  });

  it('merges an unbroken piece past 64 bytes as encode does, on both sides of the edge and far past it', () => {
    // Long pieces are merged with a heap (longPieceMerge.ts) instead of the scan: same merges, same order.
    const runs = ['a', 'ab', 'é', 'Ж', 'x9', '日本', '🚀', 'kadoti', '=+', 'Qz'];
    let seed = 5;
    const next = (bound: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % bound;
    };
    const counter = new TiktokenCounter();
    const pieces: string[] = [];
    for (const bytes of [63, 64, 65, 66, 128, 700]) {
      pieces.push('a'.repeat(bytes), '=+'.repeat(bytes >> 1));
      let text = '';
      while (new TextEncoder().encode(text).length < bytes) text += runs[next(runs.length)];
      pieces.push(text);
      let letters = '';
      while (letters.length < bytes) letters += 'abcdefghijklmnopqrstuvwxyzé'[next(27)];
      pieces.push(letters);
    }
    for (const piece of pieces)
      assert.equal(
        counter.count(piece),
        reference.encode(piece, [], []).length,
        `${piece.length}: ${piece.slice(0, 40)}`,
      );
  });

  it('keys the same ranks as js-tiktoken, every token of cl100k_base', () => {
    const theirs = (reference as unknown as { rankMap: Map<string, number> }).rankMap;
    const ours = cl100kByteRanks();
    assert.equal(ours.size, theirs.size);
    for (const [bytes, rank] of ours) {
      const key = Array.from(bytes, (char) => char.charCodeAt(0)).join(',');
      if (theirs.get(key) !== rank) assert.fail(`rank of ${key}: ${rank}, js-tiktoken ${theirs.get(key)}`);
    }
  });

  it('holds in the two-byte table exactly the ranks the map gives every pair of bytes', () => {
    const { ranks, bytePairRanks } = cl100kTables();
    for (let first = 0; first < 256; first++)
      for (let second = 0; second < 256; second++) {
        const pair = String.fromCharCode(first, second);
        assert.equal(bytePairRanks[first * 256 + second], ranks.get(pair) ?? Infinity, `pair ${first},${second}`);
      }
  });

  it('holds in the short-token table exactly the ranks the map gives, tokens and non-tokens of three to six bytes', () => {
    const { ranks, shortRanks } = cl100kTables();
    const rankOf = (bytes: string): number => {
      let packed = 0;
      for (let index = 0; index < bytes.length; index++) packed = packed * 256 + bytes.charCodeAt(index);
      return shortRanks.rank(shortTokenKey(packed, bytes.length));
    };
    let tokens = 0;
    for (const [bytes, rank] of ranks)
      if (bytes.length >= 3 && bytes.length <= MAX_SHORT_TOKEN_BYTES) {
        tokens++;
        if (rankOf(bytes) !== rank) assert.fail(`short token ${JSON.stringify(bytes)}: ${rankOf(bytes)}, map ${rank}`);
      }
    assert.ok(tokens > 50_000, `${tokens} short tokens`);
    // Byte strings that are no token, leading NULs included (the key's marker keeps "\0ab" apart from "ab").
    let seed = 11;
    const next = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
    for (let sample = 0; sample < 100_000; sample++) {
      const length = 3 + next(MAX_SHORT_TOKEN_BYTES - 2);
      const alphabet = sample % 2 === 0 ? 256 : 4;
      const bytes = String.fromCharCode(...Array.from({ length }, () => next(alphabet)));
      assert.equal(rankOf(bytes), ranks.get(bytes) ?? Infinity, JSON.stringify(bytes));
    }
  });

  it('counts 5,000 made-up words of the load benchmark as encode does (their first merges use the two-byte table)', () => {
    const counter = new TiktokenCounter();
    const syllables = ['ka', 'do', 'ti', 'mer', 'sol', 'vex', 'un', 'qua', 'rü', 'zh', 'ei', 'x', 'ng', 'ost'];
    let seed = 19;
    const next = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
    for (let word = 0; word < 5_000; word++) {
      const text = ` ${Array.from({ length: 1 + next(5) }, () => syllables[next(syllables.length)]).join('')}`;
      assert.equal(counter.count(text), reference.encode(text, [], []).length, JSON.stringify(text));
    }
  });

  it("writes a text's UTF-8 bytes one character per byte, long texts included", () => {
    const encoder = new TextEncoder();
    for (const text of ['plain ascii', 'naïve 日本 🚀', '', 'é'.repeat(20_000)]) {
      const bytes = utf8Bytes(text);
      assert.deepEqual(
        Array.from(bytes, (char) => char.charCodeAt(0)),
        Array.from(encoder.encode(text)),
        text.slice(0, 20),
      );
    }
  });
});
