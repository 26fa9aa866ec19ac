// Each bounded multiplier of the one score (README "Recall", step 7), shown by what it does to
// the score of an otherwise identical memory: the ordering tests of relevance.test.ts pass for a
// factor that is missing or unbounded; these measure each factor's effect and its bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankingFactsOf, type RankingFacts } from '../../../src/core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import { memoryRecord } from '../../support/memoryRecord.ts';
import { explainMatch, scoreMemory, type MatchSignals } from '../../../src/core/retrieval/relevance.ts';

const now = new Date('2026-06-01T00:00:00Z');
function memory(overrides: Partial<MemoryRecord> = {}): RankingFacts {
  return rankingFactsOf(memoryRecord(now.toISOString(), overrides));
}
function match(overrides: Partial<MatchSignals> = {}): MatchSignals {
  return { text: 0.5, semantic: null, matched_terms: ['x'], matched_entities: [], entity_share: 0, ...overrides };
}
const score = (
  memoryOverrides: Partial<MemoryRecord> = {},
  matchOverrides: Partial<MatchSignals> = {},
  typeMultiplier = 1,
) => scoreMemory(memory(memoryOverrides), match(matchOverrides), typeMultiplier, now);
const baseline = score().score;
const ratio = (value: number) => value / baseline;
const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual}, expected ${expected}`);

describe('the one score: each multiplier and its bound', () => {
  it('a fresh, half-important, never-read memory with full confidence scores its match less the 5 % unread-frequency discount', () => {
    close(baseline, 0.5 * 0.95, 'baseline');
  });

  it('recency: a 30-day half-life that can take at most 10 % off', () => {
    const month = score({ last_accessed: '2026-05-02T00:00:00Z' });
    close(month.breakdown.recency, 0.5, 'recency after 30 days');
    close(ratio(month.score), 0.95, 'a month unread');
    close(ratio(score({ last_accessed: '2026-04-02T00:00:00Z' }).score), 0.925, 'two months unread');
    close(ratio(score({ last_accessed: '2016-06-01T00:00:00Z' }).score), 0.9, 'ten years unread keeps 90 %');
  });

  it('importance: from −15 % (unimportant) to +15 % (important), decayed by the decay factor, full when pinned', () => {
    close(ratio(score({ importance: 1 }).score), 1.15, 'importance 1');
    close(ratio(score({ importance: 0 }).score), 0.85, 'importance 0');
    const decayed = score({ importance: 1, decay_factor: 0.5 });
    close(decayed.score, baseline, 'importance 1 decayed by half is importance 0.5');
    close(decayed.breakdown.importance, 0.5, 'reported importance is the decayed one');
    const pinned = score({ importance: 0, decay_factor: 0, pinned: true });
    close(ratio(pinned.score), 1.15, 'pinned counts as fully important');
    close(pinned.breakdown.importance, 1, 'reported importance when pinned');
  });

  it('frequency: up to +5 %, reached at 100 reads (log scale) and not beyond', () => {
    close(ratio(score({ access_count: 100 }).score), 1 / 0.95, '100 reads');
    close(ratio(score({ access_count: 10_000 }).score), 1 / 0.95, '10 000 reads');
    close(score({ access_count: 10_000 }).breakdown.frequency, 1, 'reported frequency is capped');
    close(score({ access_count: 9 }).breakdown.frequency, 0.499, 'log(10) / log(101)');
  });

  it('memory type: the type multiplier scales the score directly', () => {
    close(ratio(score({}, {}, 0.5).score), 0.5, 'type multiplier 0.5');
    close(score({}, {}, 0.5).breakdown.type_weight, 0.5, 'reported type weight');
  });

  it('entity match: up to +30 % for carrying every focus entity', () => {
    close(ratio(score({}, { entity_share: 1 }).score), 1.3, 'all focus entities');
    close(ratio(score({}, { entity_share: 0.5 }).score), 1.15, 'half of them');
    close(score({}, { entity_share: 0.5 }).breakdown.entity_match, 0.5, 'reported entity match');
  });

  it('confidence: an unconfident memory keeps 70 %', () => {
    close(ratio(score({ confidence: 0 }).score), 0.7, 'confidence 0');
    close(ratio(score({ confidence: 0.5 }).score), 0.85, 'confidence 0.5');
    close(score({ confidence: 0.5 }).breakdown.confidence, 0.5, 'reported confidence');
  });

  it('the score never exceeds 1, and a match above 1 counts as 1 before the multipliers', () => {
    assert.equal(score({ importance: 1, access_count: 100 }, { text: 1, semantic: 1, entity_share: 1 }).score, 1);
    // text 1 fused with semantic 1 is 1/0.95; clamped to 1 first, confidence 0 leaves 0.7 × 0.95.
    close(score({ confidence: 0 }, { text: 1, semantic: 1 }).score, 0.7 * 0.95, 'clamped match');
  });
});

describe('fusing the text and semantic evidence', () => {
  it('a memory without a vector keeps its text score; similarity 0.5 is neutral', () => {
    close(score({}, { semantic: 0.5 }).score, baseline, 'semantic 0.5');
    close(score({}, { semantic: null }).score, baseline, 'no vector');
  });

  it('similarity nudges a text match by about ±5 %', () => {
    close(ratio(score({}, { semantic: 1 }).score), 1 / 0.95, 'similarity 1');
    close(ratio(score({}, { semantic: 0 }).score), 0.9 / 0.95, 'similarity 0');
  });

  it('a memory found only by its vector enters at 80 % of its similarity; no evidence scores 0', () => {
    close(score({}, { text: 0, semantic: 0.9 }).score, 0.8 * 0.9 * 0.95, 'vector only');
    assert.equal(score({}, { text: 0, semantic: null }).score, 0);
  });
});

describe('the score breakdown', () => {
  it('names only the signals that contributed', () => {
    assert.deepEqual(score({}, { text: 0, semantic: 0.8 }).breakdown.signals, ['semantic']);
    assert.deepEqual(score({}, { semantic: 0 }).breakdown.signals, ['text']);
    assert.deepEqual(score({}, { matched_entities: ['file:a.ts'] }).breakdown.signals, ['text', 'entity']);
    assert.deepEqual(score({ pinned: true }).breakdown.signals, ['text', 'pinned']);
  });

  it('rounds every figure to three decimals and keeps a missing similarity null', () => {
    const { breakdown } = score(
      { last_accessed: '2026-05-31T00:00:00Z' },
      { text: 0.123456, semantic: 0.654321, matched_terms: ['a', 'b'], matched_entities: ['file:a.ts'] },
    );
    assert.equal(breakdown.text_match, 0.123);
    assert.equal(breakdown.semantic, 0.654);
    assert.equal(breakdown.recency, 0.977);
    assert.deepEqual(breakdown.matched_terms, ['a', 'b']);
    assert.deepEqual(breakdown.matched_entities, ['file:a.ts']);
    assert.equal(score().breakdown.semantic, null);
  });
});

describe('explainMatch', () => {
  const breakdown = (overrides: Partial<MatchSignals> = {}, memoryOverrides: Partial<MemoryRecord> = {}) =>
    score(memoryOverrides, overrides).breakdown;

  it('says which terms, bridges, similarity and entities matched, in that order, and that it is pinned', () => {
    assert.equal(
      explainMatch(
        breakdown(
          {
            matched_terms: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
            semantic: 0.816,
            matched_entities: ['file:a.ts', 'table:t'],
          },
          { pinned: true },
        ),
        ['w', 'x', 'y', 'z', 'v'],
      ),
      'matched terms a, b, c, d, e, f; through w, x, y, z; semantic similarity 0.82; entities file:a.ts, table:t; pinned',
    );
  });

  it('says a neighbour was found next to a matching memory', () => {
    const neighbour = { ...breakdown({ matched_terms: [] }), signals: ['neighbour' as const] };
    assert.equal(explainMatch(neighbour), 'next to a matching memory of the same conversation');
  });

  it('says a memory is from the time the question names', () => {
    const inWindow = { ...breakdown({ matched_terms: ['deploy'] }), signals: ['text' as const, 'time' as const] };
    assert.equal(explainMatch(inWindow), 'matched terms deploy; from the time asked about');
  });

  it('says a partial match was kept beside a full match', () => {
    const partial = { ...breakdown({ matched_terms: [] }), signals: ['partial' as const] };
    assert.equal(explainMatch(partial), 'partial match (below the relevance floor, beside a full match)');
  });

  it('falls back to importance and recency when nothing matched, and leaves out a zero similarity', () => {
    assert.equal(explainMatch(breakdown({ matched_terms: [], semantic: 0 })), 'ranked by importance and recency');
  });
});
