import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankingFactsOf, type RankingFacts } from '../../../src/core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import { memoryRecord } from '../../support/memoryRecord.ts';
import { scoreMemory } from '../../../src/core/retrieval/relevance.ts';
import { intentMultiplier, typeWeigher } from '../../../src/core/retrieval/typeWeights.ts';

const now = new Date('2026-06-01T00:00:00Z');
function memory(overrides: Partial<MemoryRecord> = {}): RankingFacts {
  return rankingFactsOf(memoryRecord(now.toISOString(), overrides));
}
const match = (text: number, semantic: number | null = null) => ({
  text,
  semantic,
  matched_terms: ['x'],
  matched_entities: [],
  entity_share: 0,
});

describe('composite relevance', () => {
  it('stays in [0, 1] and reports every signal', () => {
    const { score, breakdown } = scoreMemory(
      memory({ importance: 1, access_count: 1000, pinned: true }),
      { ...match(1, 1), matched_entities: ['table:a'], entity_share: 1 },
      1,
      now,
    );
    assert.ok(score <= 1 && score > 0.9);
    assert.deepEqual(breakdown.signals, ['text', 'semantic', 'entity', 'pinned']);
    assert.equal(breakdown.frequency, 1);
  });

  it('lets a strong match of an unimportant memory beat a weak match of an important one', () => {
    const strong = scoreMemory(memory({ importance: 0.1 }), match(1), 1, now).score;
    const weak = scoreMemory(memory({ importance: 1, access_count: 100 }), match(0.3), 1, now).score;
    assert.ok(strong > weak, `${strong} > ${weak}`);
  });

  it('decays with age since last access (30-day half-life) but only reorders close matches', () => {
    const fresh = scoreMemory(memory(), match(0.8), 1, now);
    const old = scoreMemory(memory({ last_accessed: '2026-05-02T00:00:00Z' }), match(0.8), 1, now);
    assert.ok(Math.abs(old.breakdown.recency - 0.5) < 0.01);
    assert.ok(fresh.score > old.score);
    assert.ok(old.score / fresh.score > 0.9);
  });

  it('fuses semantic and text so either alone can carry a memory and both together rank highest', () => {
    const textOnly = scoreMemory(memory(), match(0.9), 1, now).score;
    const semanticOnly = scoreMemory(memory(), match(0, 0.9), 1, now).score;
    const both = scoreMemory(memory(), match(0.9, 0.9), 1, now).score;
    assert.ok(semanticOnly > 0.5 && textOnly > 0.5);
    assert.ok(both > textOnly && both > semanticOnly);
  });

  it('weights types by intent (seed 000 §4.3) within bounds', () => {
    const weigh = typeWeigher();
    assert.ok(weigh('procedural', 'workflow', 'how_to') > weigh('procedural', 'workflow', 'general'));
    assert.ok(weigh('episodic', 'decision', 'what_happened') > weigh('preference', 'style', 'what_happened'));
    for (const subtype of ['workflow', 'style', 'decision', 'entity']) {
      const value = weigh('semantic', subtype, 'debug');
      assert.ok(value >= 0.5 && value <= 1);
    }
    assert.equal(typeWeigher({ episodic_events: 1 })('episodic', 'event', 'general'), 1);
    assert.equal(intentMultiplier('workflow', 'general'), 1);
    assert.ok(intentMultiplier('debugging', 'debug') > intentMultiplier('style', 'debug'));
  });
});
