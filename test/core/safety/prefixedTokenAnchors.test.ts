import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PREFIXED_TOKEN_RULES,
  rulesThatMayMatch,
  type TokenRule,
} from '../../../src/core/safety/prefixedTokenRules.ts';
import { regexMatches } from '../../../src/core/util/regexMatches.ts';
import { CREDENTIAL_CORPUS } from './credentialCorpus.ts';
import { LOOK_ALIKE_CORPUS } from './lookAlikeCorpus.ts';

/**
 * The anchors only decide which rules run: every rule, run over every text, must find exactly what
 * the rules the prefilter keeps find. Checked on the credential corpus, on look-alikes and on texts
 * made to sit on the anchors' edges (cut, case-flipped, glued to the tokens' alphabets).
 */
function matchesOf(rules: readonly TokenRule[], text: string): string[] {
  return rules.flatMap((rule) =>
    regexMatches(rule.pattern, text).map((match) => `${rule.kind}@${match.index}+${match[0].length}`),
  );
}

function assertPrefilterKeepsEveryMatch(text: string): number {
  const full = matchesOf(PREFIXED_TOKEN_RULES, text);
  assert.deepEqual(matchesOf(rulesThatMayMatch(text), text), full, JSON.stringify(text));
  return full.length;
}

test('every vendor rule meets its anchors in the credential corpus, and the prefilter keeps every match', () => {
  const kinds = new Set(PREFIXED_TOKEN_RULES.map((rule) => rule.kind));
  const matched = new Set<string>();
  for (const sample of CREDENTIAL_CORPUS) {
    assertPrefilterKeepsEveryMatch(sample.text);
    for (const rule of PREFIXED_TOKEN_RULES)
      if (regexMatches(rule.pattern, sample.text).length > 0) {
        matched.add(rule.kind);
        assert.ok(
          rule.anchors.some((anchor) => sample.text.includes(anchor)),
          `${rule.kind} matched ${JSON.stringify(sample.text)} without any of its anchors`,
        );
      }
  }
  assert.deepEqual(
    [...kinds].filter((kind) => !matched.has(kind)),
    [],
    'every vendor rule has a sample in the corpus',
  );
});

test('look-alikes and ordinary notes find the same with and without the prefilter', () => {
  for (const text of LOOK_ALIKE_CORPUS) assertPrefilterKeepsEveryMatch(text);
  assert.deepEqual(rulesThatMayMatch('we decided to deploy the gateway after the migration, see src/api/users.ts'), []);
});

test('hostile texts: corpus tokens mutated, anchors cut, case-flipped and glued to random runs', () => {
  let seed = 31;
  const next = (below: number): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return (seed >>> 8) % below;
  };
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.:/=~%+?&@ \n';
  const run = (length: number): string => Array.from({ length }, () => ALPHABET[next(ALPHABET.length)]).join('');
  const anchors = PREFIXED_TOKEN_RULES.flatMap((rule) => rule.anchors);
  const flipCase = (text: string, at: number): string => {
    const char = text[at] ?? '';
    const flipped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
    return text.slice(0, at) + flipped + text.slice(at + 1);
  };
  const mutate = (text: string): string => {
    const at = next(text.length + 1);
    switch (next(4)) {
      case 0:
        return text.slice(0, at) + text.slice(at + 1);
      case 1:
        return text.slice(0, at) + ALPHABET[next(ALPHABET.length)] + text.slice(at + 1);
      case 2:
        return text.slice(0, at) + ALPHABET[next(ALPHABET.length)] + text.slice(at);
      default:
        return flipCase(text, at);
    }
  };
  let withMatches = 0;
  let texts = 0;
  for (const sample of CREDENTIAL_CORPUS)
    for (let round = 0; round < 60; round++) {
      let text = sample.text;
      for (let edits = 1 + next(3); edits > 0; edits--) text = mutate(text);
      if (assertPrefilterKeepsEveryMatch(text) > 0) withMatches++;
      texts++;
    }
  for (let round = 0; round < 20_000; round++) {
    const anchor = anchors[next(anchors.length)];
    const cut = [anchor, anchor.slice(1), anchor.slice(0, -1), flipCase(anchor, next(anchor.length))][next(4)];
    const text = `${run(next(8))}${cut}${run(next(160))}${next(2) === 0 ? anchors[next(anchors.length)] + run(next(80)) : ''}`;
    if (assertPrefilterKeepsEveryMatch(text) > 0) withMatches++;
    texts++;
  }
  // Not vacuous: many of these texts do hold a vendor token, so a wrong anchor would show.
  assert.ok(withMatches > 2_000, `${withMatches} of ${texts} texts with a match`);
});
