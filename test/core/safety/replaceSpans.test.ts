import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replaceSpans } from '../../../src/core/safety/replaceSpans.ts';

test('replaces each span by its label and keeps the text between', () => {
  const { content, counts } = replaceSpans('a SECRET b TOKEN c', [
    { kind: 'y', index: 11, length: 5 },
    { kind: 'x', index: 2, length: 6 },
  ]);
  assert.equal(content, 'a [REDACTED:x] b [REDACTED:y] c');
  assert.deepEqual(
    [...counts],
    [
      ['x', 1],
      ['y', 1],
    ],
  );
});

test('overlapping spans are one redaction covering their union, labelled by the first', () => {
  // "0123456789": x covers 2..5, y covers 4..8; nothing of 2..8 may survive.
  const { content, counts } = replaceSpans('0123456789', [
    { kind: 'y', index: 4, length: 5 },
    { kind: 'x', index: 2, length: 4 },
  ]);
  assert.equal(content, '01[REDACTED:x]9');
  assert.deepEqual([...counts], [['x', 1]]);
});

test('at one position the longer span wins the label; a span inside it adds nothing', () => {
  const { content, counts } = replaceSpans('..abcdef..', [
    { kind: 'short', index: 2, length: 2 },
    { kind: 'long', index: 2, length: 6 },
    { kind: 'inner', index: 4, length: 1 },
  ]);
  assert.equal(content, '..[REDACTED:long]..');
  assert.deepEqual([...counts], [['long', 1]]);
});

test('touching spans merge; separated ones do not; empty spans are ignored', () => {
  assert.equal(
    replaceSpans('abcdef', [
      { kind: 'a', index: 0, length: 3 },
      { kind: 'b', index: 3, length: 3 },
    ]).content,
    '[REDACTED:a]',
  );
  assert.equal(
    replaceSpans('abc def', [
      { kind: 'a', index: 0, length: 3 },
      { kind: 'b', index: 4, length: 3 },
    ]).content,
    '[REDACTED:a] [REDACTED:b]',
  );
  assert.deepEqual(replaceSpans('abc', [{ kind: 'a', index: 1, length: 0 }]), { content: 'abc', counts: new Map() });
});

test('counts the same kind each time it is replaced', () => {
  assert.deepEqual(
    [
      ...replaceSpans(
        'k1 k2 k3',
        [0, 3, 6].map((index) => ({ kind: 'k', index, length: 2 })),
      ).counts,
    ],
    [['k', 3]],
  );
});
