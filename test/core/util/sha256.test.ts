import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { sha256Base64Url, sha256Hex } from '../../../src/core/util/sha256.ts';

// Stored digests (code fingerprints, project scopes, imported ids) were made by node:crypto; the
// core's own SHA-256 must give the same bytes for every input, whatever its length or script.
const samples = [
  '',
  'abc',
  'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
  'x'.repeat(55),
  'x'.repeat(56),
  'x'.repeat(63),
  'x'.repeat(64),
  'x'.repeat(65),
  'y'.repeat(1_000),
  'héllo wörld — 日本語 🚀 emoji',
  'lone \ud800 surrogate',
  'user_1\u0000mem_abc',
  'a\u0001b\u0001c',
];

describe('sha256 (core, no node:crypto)', () => {
  it('matches node:crypto in hex and base64url for padding edges, multi-byte text and lone surrogates', () => {
    for (const text of samples) {
      assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'), JSON.stringify(text));
      assert.equal(sha256Base64Url(text), createHash('sha256').update(text).digest('base64url'), JSON.stringify(text));
    }
  });

  it('matches node:crypto on random strings', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 200; round++) {
      const length = next() % 300;
      const text = Array.from({ length }, () => String.fromCharCode(next() % 0x3000)).join('');
      assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'));
    }
  });

  it('knows the published test vector for "abc"', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
