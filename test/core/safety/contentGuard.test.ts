import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { guardJson, guardText } from '../../../src/core/safety/contentGuard.ts';

// Assembled from parts so this file never itself looks like it holds a credential.
const key = ['sk-', 'proj-', 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV'].join('');
const redact = { secretPolicy: 'redact', piiRedaction: false } as const;

test('redacts a credential and reports its kind and count', () => {
  const result = guardText(`Use ${key} for the API and DB_PASSWORD=hunter2hunter2 locally`, redact);
  assert.ok(!result.content.includes(key));
  assert.match(result.content, /\[REDACTED:openai-key\]/);
  assert.match(result.content, /\[REDACTED:password-assignment\]/);
  assert.deepEqual(
    result.redactions.sort((a, b) => a.kind.localeCompare(b.kind)),
    [
      { kind: 'openai-key', count: 1 },
      { kind: 'password-assignment', count: 1 },
    ],
  );
});

test('leaves ordinary text untouched', () => {
  const text = 'We use PostgreSQL 16 on port 5432; call me at the standup.';
  assert.deepEqual(guardText(text, redact), { content: text, redactions: [] });
});

test('refuses with INVALID_INPUT naming the kind, never the secret', () => {
  assert.throws(
    () => guardText(`token ${key}`, { secretPolicy: 'refuse', piiRedaction: false }),
    (error: unknown) =>
      MemoryError.is(error, 'INVALID_INPUT') && error.message.includes('openai-key') && !error.message.includes(key),
  );
});

test('redacts e-mail addresses and phone numbers only when PII redaction is on', () => {
  const text = 'Mail alex@example.com or call +1 415-555-0132; build 20240101 took 5432 ms.';
  assert.equal(guardText(text, redact).content, text);
  const result = guardText(text, { secretPolicy: 'redact', piiRedaction: true });
  assert.equal(result.content, 'Mail [REDACTED:email] or call [REDACTED:phone]; build 20240101 took 5432 ms.');
  assert.deepEqual(result.redactions, [
    { kind: 'email', count: 1 },
    { kind: 'phone', count: 1 },
  ]);
});

test('guards every string nested in metadata', () => {
  const { value, redactions } = guardJson({ reasoning: `key was ${key}`, nested: { list: ['ok', key] }, n: 3 }, redact);
  assert.equal(JSON.stringify(value).includes(key), false);
  assert.equal(value.n, 3);
  assert.deepEqual(redactions, [{ kind: 'openai-key', count: 2 }]);
});

test('guards metadata keys as well as values', () => {
  const { value, redactions } = guardJson({ [key]: 'pasted as a key', plain: 1 }, redact);
  assert.deepEqual(value, { '[REDACTED:openai-key]': 'pasted as a key', plain: 1 });
  assert.deepEqual(redactions, [{ kind: 'openai-key', count: 1 }]);
});

test('a refusal names the metadata path, never the secret', () => {
  assert.throws(
    () => guardJson({ nested: { list: ['ok', key] } }, { secretPolicy: 'refuse', piiRedaction: false }),
    (error: unknown) =>
      MemoryError.is(error, 'INVALID_INPUT') &&
      error.message.startsWith('metadata.nested.list[1] contains') &&
      !error.message.includes(key),
  );
});

test('PII and a credential in one text are separate redactions; an e-mail inside a URL password is one', () => {
  const text = ['Mail ops@example.com, token ', key, '; db redis://:hunter2x@cache:6379'].join('');
  const result = guardText(text, { secretPolicy: 'redact', piiRedaction: true });
  assert.equal(
    result.content,
    'Mail [REDACTED:email], token [REDACTED:openai-key]; db redis://:[REDACTED:connection-string-credentials]@cache:6379',
  );
  assert.deepEqual(result.redactions, [
    { kind: 'email', count: 1 },
    { kind: 'openai-key', count: 1 },
    { kind: 'connection-string-credentials', count: 1 },
  ]);
});

test('a metadata field named like a credential has its value redacted whole, with the key kept', () => {
  const { value, redactions } = guardJson(
    {
      db_password: 'hunter2x',
      apiToken: 'Zk29dkQmA0pLq7Xw',
      token_count: '1523',
      secret: 'staging',
      password_hint: 'pet name',
    },
    redact,
  );
  assert.deepEqual(value, {
    db_password: '[REDACTED:password-assignment]',
    apiToken: '[REDACTED:secret-assignment]',
    token_count: '1523',
    secret: 'staging',
    password_hint: 'pet name',
  });
  assert.deepEqual(redactions, [
    { kind: 'password-assignment', count: 1 },
    { kind: 'secret-assignment', count: 1 },
  ]);
  // A value already redacted by its own shape keeps its specific label.
  assert.deepEqual(guardJson({ token: key }, redact).value, { token: '[REDACTED:openai-key]' });
  assert.throws(
    () => guardJson({ nested: { db_password: 'hunter2x' } }, { secretPolicy: 'refuse', piiRedaction: false }),
    (error: unknown) =>
      MemoryError.is(error, 'INVALID_INPUT') &&
      error.message.startsWith('metadata.nested.db_password contains') &&
      !error.message.includes('hunter2x'),
  );
});
