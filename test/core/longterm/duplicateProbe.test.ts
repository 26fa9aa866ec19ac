import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { duplicateProbeOf, duplicateSimilarity } from '../../../src/core/longterm/duplicateProbe.ts';
import { duplicateCandidateOf } from '../../../src/core/ports/duplicateGuard.ts';
import {
  similarityToText,
  textSimilarity,
  wordCountSimilarity,
  wordCounts,
} from '../../../src/core/longterm/textSimilarity.ts';
import { analyzeQuery } from '../../../src/core/text/analyzer.ts';
import { makeMemory } from '../../contract/fixtures.ts';

const WORDS = [
  'deploy',
  'Deploy',
  'staging',
  'ｃｌｕｓｔｅｒ',
  'cluster',
  'Tuesday',
  'naïve',
  'naïve',
  'x_1',
  '42',
  '日本',
  '—',
  'é',
];

function randomTexts(count: number): string[] {
  let seed = 3;
  const next = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
  return Array.from({ length: count }, () =>
    Array.from({ length: next(14) }, () => WORDS[next(WORDS.length)]).join(next(4) === 0 ? ', ' : ' '),
  );
}

// A stored memory's words are counted once for all its duplicate candidates (issue 31): the
// similarity must be the very number comparing the two texts gives, to the last bit.
describe('duplicate similarity from words counted once', () => {
  it('wordCountSimilarity over wordCounts is textSimilarity, bit for bit', () => {
    const texts = randomTexts(80);
    for (const a of texts)
      for (const b of texts) assert.equal(wordCountSimilarity(wordCounts(a), wordCounts(b)), textSimilarity(a, b));
  });

  it('similarityToText, which counts the text without a map, is wordCountSimilarity over its counts, bit for bit', () => {
    const texts = [...randomTexts(80), '', 'b a b a a', 'Zz zz ZZ zz', '日本 日本 — é é'];
    for (const a of texts)
      for (const b of texts)
        assert.equal(similarityToText(wordCounts(a), b), wordCountSimilarity(wordCounts(a), wordCounts(b)));
    assert.equal(similarityToText(wordCounts('a b b'), 'b a b'), 1);
  });

  it('a probe built by duplicateProbeOf scores every candidate as textSimilarity of the two contents', () => {
    const texts = randomTexts(60);
    for (const content of texts) {
      const probe = duplicateProbeOf({
        scope: { layer: 'user', scope_id: 'u1' },
        project_id: null,
        content,
        terms: analyzeQuery(content),
        embedding: null,
        fact: null,
      });
      for (const other of texts) {
        const candidate = makeMemory('u1', { content: other });
        assert.equal(duplicateSimilarity(probe, duplicateCandidateOf(candidate), null), textSimilarity(content, other));
      }
    }
  });
});
