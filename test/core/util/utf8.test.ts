import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utf8ByteLength } from '../../../src/core/util/utf8.ts';

// The core's byte limits were measured with Buffer.byteLength; its own count must agree on every string.
describe('utf8ByteLength (core, no Buffer)', () => {
  it('counts as Buffer.byteLength does: ASCII, 2-, 3- and 4-byte characters, lone and reversed surrogates', () => {
    for (const text of [
      '',
      'abc',
      'é',
      'héllo',
      '日本語',
      '🚀',
      'a🚀b',
      '\ud800',
      '\udc00',
      '\udc00\ud800',
      'x\ud800',
      '\ud800x',
    ])
      assert.equal(utf8ByteLength(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
  });

  it('agrees with Buffer.byteLength on random strings over the whole UTF-16 range', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: next() % 200 }, () => String.fromCharCode(next() % 0x10000)).join('');
      assert.equal(utf8ByteLength(text), Buffer.byteLength(text, 'utf8'));
    }
  });
});
