import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { regexMatches } from '../../../src/core/util/regexMatches.ts';
import { PREFIXED_TOKEN_RULES } from '../../../src/core/safety/prefixedTokenRules.ts';

const plain = (matches: Iterable<RegExpMatchArray>) =>
  [...matches].map((match) => ({
    text: [...match],
    index: match.index,
    groups: match.groups ? { ...match.groups } : undefined,
    indices: match.indices ? [...match.indices].map((pair) => (pair ? [...pair] : pair)) : undefined,
  }));

const TEXTS = [
  '',
  'abc',
  'a1b22c333 ghp_0123456789abcdefghijABCDEFGHIJ0123 sk-ant-api03-xyz',
  '😀😀a😀',
  'x\ud83d', // a lone high surrogate at the end
  'héllo wörld, 日本語 テキスト',
  'key=value; password = "hunter2" token: abc\nnext line',
];

describe('regexMatches', () => {
  it('gives what matchAll gives: empty matches, Unicode steps, named groups and indices', () => {
    const patterns = [
      /a*/g,
      /(?:)/gu,
      /(?:)/g,
      /\p{L}*/gu,
      /(?<digit>\d+)/dg,
      /[\p{L}\p{N}_]+/gu,
      /(?<name>\w+)\s*=\s*(?<value>"[^"]*"|\S+)/dg,
      /^.*$/gm,
      /b|$/g,
      new RegExp('[\\p{L}--[a-z]]*', 'gv'),
    ];
    for (const pattern of patterns)
      for (const text of TEXTS)
        assert.deepEqual(
          plain(regexMatches(pattern, text)),
          plain(text.matchAll(pattern)),
          `${pattern} on ${JSON.stringify(text)}`,
        );
  });

  it('gives what matchAll gives for every vendor-token rule of the secret detector', () => {
    for (const rule of PREFIXED_TOKEN_RULES)
      for (const text of TEXTS)
        assert.deepEqual(
          plain(regexMatches(rule.pattern, text)),
          plain(text.matchAll(rule.pattern)),
          String(rule.pattern),
        );
  });

  it('starts at 0 whatever lastIndex was, and leaves it at 0', () => {
    const pattern = /\d/g;
    pattern.lastIndex = 3;
    assert.deepEqual(
      regexMatches(pattern, '1a2b3').map((match) => match[0]),
      ['1', '2', '3'],
    );
    assert.equal(pattern.lastIndex, 0);
  });

  it('refuses a pattern without the g flag, as matchAll does', () => {
    assert.throws(() => regexMatches(/a/, 'aaa'), TypeError);
  });
});
