import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MEMORY_SUBTYPES } from '../../../src/core/domain/taxonomy.ts';
import { classifyContent } from '../../../src/core/longterm/classifyContent.ts';
import { HELD_OUT_SET, LABELLED_SET, type LabelledExample, UNSEEN_SET } from './labelledSet.ts';

function accuracy(set: readonly LabelledExample[]): { label: number; temporal: number; wrong: string[] } {
  const wrong: string[] = [];
  let temporal = 0;
  for (const example of set) {
    const result = classifyContent(example.content);
    const got = `${result.memory_category}.${result.memory_subtype}`;
    if (got !== example.label) wrong.push(`${example.label} ← ${got} (${result.rule}): ${example.content}`);
    if (result.is_temporal === (example.temporal ?? false)) temporal++;
  }
  return { label: (set.length - wrong.length) / set.length, temporal: temporal / set.length, wrong };
}

/**
 * Floors are the accuracy measured when the rules were last changed, so a regression fails here.
 * Measured: LABELLED_SET 61/61, HELD_OUT_SET 18/18 (partly fitted), UNSEEN_SET 9/18.
 */
describe('rule-based classification accuracy', () => {
  it('covers every subtype of the taxonomy with at least three examples', () => {
    const perLabel = new Map<string, number>();
    for (const example of LABELLED_SET) perLabel.set(example.label, (perLabel.get(example.label) ?? 0) + 1);
    assert.equal(perLabel.size, MEMORY_SUBTYPES.length);
    assert.ok(
      [...perLabel.values()].every((count) => count >= 3),
      JSON.stringify(Object.fromEntries(perLabel)),
    );
    assert.ok(LABELLED_SET.length >= 60);
  });

  it('labels the tuning set', () => {
    const measured = accuracy(LABELLED_SET);
    assert.ok(measured.label >= 0.95, measured.wrong.join('\n'));
    assert.ok(measured.temporal >= 0.95);
  });

  it('labels the held-out set', () => {
    const measured = accuracy(HELD_OUT_SET);
    assert.ok(measured.label >= 0.9, measured.wrong.join('\n'));
  });

  it('labels at least half of the never-tuned set, better than the rules before this change (7/18)', () => {
    const measured = accuracy(UNSEEN_SET);
    assert.ok(measured.label >= 0.5, measured.wrong.join('\n'));
  });
});
