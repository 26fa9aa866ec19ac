import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeOrigin,
  nearDuplicates,
  readableReason,
  unwrapEnvelope,
  wordForStem,
} from '../../webview/views/contextPreviewText.ts';
import { neutralise } from '../../src/core/safety/neutralise.ts';

test('the agent framing is unwrapped into the text and its attributes, whatever the core wrote', () => {
  const text = 'Billing services run on Fly.io.\nDeploy with `fly deploy`.';
  const framed = neutralise(text, {
    source: 'long_term',
    memoryId: 'mem_1',
    layer: 'team',
    sourceType: 'editor',
    confidence: 0.9,
  }).content;
  const { body, attributes } = unwrapEnvelope(framed);
  assert.equal(body, text);
  assert.deepEqual(attributes, {
    source: 'long_term',
    id: 'mem_1',
    layer: 'team',
    origin: 'editor',
    confidence: '0.90',
  });
  assert.equal(describeOrigin(attributes), 'long-term memory · team layer · from editor · confidence 0.90');
  assert.deepEqual(unwrapEnvelope('plain text'), { attributes: {}, body: 'plain text' });
});

test('stems in the reasons become the words of the question or the memory', () => {
  assert.equal(wordForStem('servic', ['how are the billing services deployed?']), 'services');
  assert.equal(wordForStem('happi', ['a happy path']), 'happy');
  assert.equal(wordForStem('zzz', ['nothing']), 'zzz');
  assert.equal(
    readableReason(
      'semantic.project memory (team layer) for a what_is query: matched terms bill, servic; semantic similarity 0.42; entities fly.io.',
      'where do billing services run?',
      'Billing services run on Fly.io.',
    ),
    'Matches “billing”, “services”; similar in meaning (0.42); entities fly.io.',
  );
  assert.equal(
    readableReason(
      'semantic.decision memory for a general query: matched terms pnpm. It overrides a conflicting team-layer memory: the more specific layer wins.',
      'pnpm?',
      'Use pnpm.',
    ),
    'Matches “pnpm”. It overrides a conflicting team-layer memory: the more specific layer wins.',
  );
  const working = 'Working memory (task_state): current task state.';
  assert.equal(readableReason(working, 'q', 'b'), working);
});

test('items saying nearly the same thing are flagged against the first of them', () => {
  assert.deepEqual(
    nearDuplicates([
      'We deploy the web app with fly deploy from main.',
      'Postgres 17 is the database.',
      'We deploy the web app with fly deploy from the main branch.',
      '',
    ]),
    [-1, -1, 0, -1],
  );
});
