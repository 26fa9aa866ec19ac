import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeDocument, analyzeQuery } from '../../../src/core/text/analyzer.ts';
import { LexicalIndex } from '../../../src/stores/common/lexicalIndex.ts';
import { expandQuery } from '../../../src/stores/common/pseudoRelevanceFeedback.ts';

function build(): LexicalIndex {
  const index = new LexicalIndex();
  const docs = [
    'kubernetes pod crashloop after helm upgrade',
    'helm upgrade broke the kubernetes ingress',
    'the ingress controller needs a helm value',
    'lunch menu for friday',
    'friday standup notes',
    'coffee machine is broken',
  ];
  docs.forEach((content, i) => index.upsert(`d${i}`, analyzeDocument({ content, entities: [], tags: [] })));
  return index;
}

test('adds co-occurring terms and keeps the original query dominant', () => {
  const index = build();
  const query = analyzeQuery('kubernetes');
  const expanded = expandQuery(index, query, { documents: 2, terms: 3, lambda: 0.3 });
  const weights = new Map(expanded.map(({ term, weight }) => [term, weight]));
  assert.ok(weights.has('helm'), 'helm co-occurs with kubernetes');
  assert.ok(!weights.has('lunch') && !weights.has('coffe'));
  assert.ok(weights.get('kubernet')! > weights.get('helm')!);
  const total = expanded.reduce((sum, { weight }) => sum + weight, 0);
  assert.ok(Math.abs(total - 1) < 1e-9, 'mass is rescaled to the original query');
});

test('expansion reaches a document without the query term', () => {
  const index = build();
  const plain = index.search(analyzeQuery('kubernetes'), 10).map((hit) => hit.memory_id);
  const expanded = index.search(
    expandQuery(index, analyzeQuery('kubernetes'), { documents: 2, terms: 5, lambda: 0.3 }),
    10,
  );
  assert.ok(!plain.includes('d2'));
  assert.ok(expanded.some((hit) => hit.memory_id === 'd2'));
});

test('returns the query unchanged when nothing matches or lambda is 0', () => {
  const index = build();
  const query = analyzeQuery('postgres');
  assert.deepEqual(expandQuery(index, query), query);
  assert.deepEqual(expandQuery(index, analyzeQuery('helm'), { lambda: 0 }), analyzeQuery('helm'));
});
