// Type weights: seed 000's context_weights defaults (§7.1 get_relevant_context), its retrieval
// profiles (§4.3), and the bounded multiplier built from them, by value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_CONTEXT_WEIGHTS,
  intentMultiplier,
  typeWeigher,
  weightKeyOf,
  workingMemoryMultiplier,
} from '../../../src/core/retrieval/typeWeights.ts';

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual}, expected ${expected}`);

describe('type weights', () => {
  it("defaults are the seed's context_weights", () => {
    assert.deepEqual(DEFAULT_CONTEXT_WEIGHTS, {
      working_memory: 0.35,
      episodic_decisions: 0.15,
      episodic_events: 0.05,
      episodic_outcomes: 0.1,
      semantic_project: 0.1,
      semantic_entity: 0.1,
      semantic_user: 0.05,
      procedural_workflow: 0.05,
      procedural_pattern: 0.03,
      preference: 0.02,
    });
  });

  it('every subtype maps to its weight key; an unnamed subtype falls back by category', () => {
    const expected: Record<string, string> = {
      decision: 'episodic_decisions',
      event: 'episodic_events',
      conversation: 'episodic_events',
      outcome: 'episodic_outcomes',
      project: 'semantic_project',
      environment: 'semantic_project',
      domain: 'semantic_entity',
      entity: 'semantic_entity',
      user: 'semantic_user',
      workflow: 'procedural_workflow',
      tool_usage: 'procedural_workflow',
      pattern: 'procedural_pattern',
      debugging: 'procedural_pattern',
      communication: 'preference',
      style: 'preference',
      tools: 'preference',
      boundaries: 'preference',
    };
    for (const [subtype, key] of Object.entries(expected)) assert.equal(weightKeyOf('semantic', subtype), key, subtype);
    assert.equal(weightKeyOf('preference', 'custom'), 'preference');
    assert.equal(weightKeyOf('episodic', 'custom'), 'semantic_project');
  });

  it('the multiplier is 0.5 + 0.5 × (weight / the largest long-term weight), lifted ×1.5 for HIGH and ×1.2 for MEDIUM, capped at 1', () => {
    const weigh = typeWeigher();
    close(weigh('episodic', 'decision', 'general'), 1, 'the heaviest type');
    close(weigh('episodic', 'event', 'general'), 0.5 + 0.5 / 3, 'a third of the heaviest');
    close(weigh('episodic', 'event', 'what_happened'), 0.75, 'HIGH: a third × 1.5');
    close(weigh('episodic', 'outcome', 'what_happened'), 0.9, 'MEDIUM: two thirds × 1.2');
    close(weigh('episodic', 'outcome', 'debug'), 1, 'HIGH: two thirds × 1.5 is capped at 1');
    close(weigh('episodic', 'decision', 'what_happened'), 1, 'HIGH on the heaviest stays 1');
    close(weigh('preference', 'style', 'how_to'), 0.5 + 0.5 * (0.02 / 0.15) * 1.2, 'MEDIUM under how_to');
    close(weigh('preference', 'style', 'debug'), 0.5 + 0.5 * (0.02 / 0.15), 'no lift outside the profile');
  });

  it('every intent lifts the subtypes of its seed profile', () => {
    const weigh = typeWeigher();
    // The unlifted share of the largest weight, read back from the general intent.
    const base = (subtype: string) => (weigh('semantic', subtype, 'general') - 0.5) * 2;
    const profiles = {
      how_to: { high: ['workflow', 'pattern'], medium: ['project', 'style'] },
      what_happened: { high: ['decision', 'event'], medium: ['outcome'] },
      what_is: { high: ['entity', 'project'], medium: ['domain'] },
      debug: { high: ['debugging', 'outcome'], medium: ['environment'] },
    } as const;
    for (const [intent, { high, medium }] of Object.entries(profiles) as Array<
      [keyof typeof profiles, (typeof profiles)[keyof typeof profiles]]
    >) {
      for (const subtype of high)
        close(
          weigh('semantic', subtype, intent),
          0.5 + 0.5 * Math.min(1, 1.5 * base(subtype)),
          `${intent} HIGH ${subtype}`,
        );
      for (const subtype of medium)
        close(
          weigh('semantic', subtype, intent),
          0.5 + 0.5 * Math.min(1, 1.2 * base(subtype)),
          `${intent} MEDIUM ${subtype}`,
        );
      for (const subtype of high) assert.equal(intentMultiplier(subtype, intent), 1, `${intent} ${subtype}`);
      for (const subtype of medium) assert.equal(intentMultiplier(subtype, intent), 0.95, `${intent} ${subtype}`);
    }
  });

  it('overrides replace defaults; the working-memory weight does not scale the long-term types', () => {
    close(
      typeWeigher({ working_memory: 10 })('episodic', 'event', 'general'),
      0.5 + 0.5 / 3,
      'working memory weight ignored',
    );
    close(
      typeWeigher({ episodic_decisions: 0.05 })('episodic', 'event', 'general'),
      0.5 + 0.5 * (0.05 / 0.1),
      'largest is now 0.1',
    );
    const allZero = Object.fromEntries(Object.keys(DEFAULT_CONTEXT_WEIGHTS).map((key) => [key, 0]));
    close(typeWeigher(allZero)('episodic', 'decision', 'general'), 0.5, 'every weight 0: the floor, not NaN');
  });

  it('working memory: its weight over the largest of all weights, bounded to [0.5, 1]', () => {
    close(workingMemoryMultiplier(), 1, 'default 0.35 is the largest');
    close(workingMemoryMultiplier({ working_memory: 0.075 }), 0.75, 'half of 0.15');
    const allZero = Object.fromEntries(Object.keys(DEFAULT_CONTEXT_WEIGHTS).map((key) => [key, 0]));
    close(workingMemoryMultiplier(allZero), 0.5, 'every weight 0');
  });

  it('recall: a general query weighs every type alike; otherwise the profile is 1, 0.95 or 0.9', () => {
    assert.equal(intentMultiplier('style', 'general'), 1);
    assert.equal(intentMultiplier('style', 'debug'), 0.9);
    assert.equal(intentMultiplier('debugging', 'debug'), 1);
    assert.equal(intentMultiplier('environment', 'debug'), 0.95);
  });

  it('recall: a dialog turn is neutral under every intent (its subtype says nothing of its content)', () => {
    for (const intent of ['what_happened', 'what_is', 'how_to', 'debug', 'general'] as const)
      assert.equal(intentMultiplier('conversation', intent), 1, intent);
    assert.equal(intentMultiplier('event', 'what_happened'), 1);
    assert.equal(intentMultiplier('style', 'what_happened'), 0.9);
  });
});
