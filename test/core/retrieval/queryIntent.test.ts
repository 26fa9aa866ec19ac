import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectIntent } from '../../../src/core/retrieval/queryIntent.ts';

test('detects debugging questions', () => {
  for (const query of [
    "Why isn't the dev server starting?",
    'TypeError: cannot read properties of undefined',
    'tests fail on CI with ENOENT',
    "the build doesn't work after upgrading",
    'fix the flaky login test',
    'npm exits with exit code 1',
  ])
    assert.equal(detectIntent(query), 'debug', query);
});

test('detects how-to questions', () => {
  for (const query of [
    'How do I run the migrations?',
    'how to configure eslint for this repo',
    'What are the steps to release a new version?',
    'set up the local database',
  ])
    assert.equal(detectIntent(query), 'how_to', query);
});

test('detects episodic questions', () => {
  for (const query of [
    'What happened with the auth refactor?',
    'When did we switch to pnpm?',
    'What did we decide about caching?',
    'what did Melanie paint last year?',
  ])
    assert.equal(detectIntent(query), 'what_happened', query);
});

test('detects definitional questions', () => {
  for (const query of [
    'What is the retry policy?',
    "What's FML?",
    'Explain the store port',
    'What does RRF stand for?',
  ]) {
    assert.equal(detectIntent(query), 'what_is', query);
  }
});

test('falls back to general', () => {
  for (const query of ['', 'postgres connection pool', 'Caroline and Melanie', 'every email address']) {
    assert.equal(detectIntent(query), 'general', query);
  }
});
