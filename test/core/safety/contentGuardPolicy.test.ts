// The gate's policy in detail: what a refusal says and carries, which texts PII redaction
// touches, how redactions of one value add up, and the path a refusal names inside metadata.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { guardJson, guardNamedText, guardText, mergeRedactions } from '../../../src/core/safety/contentGuard.ts';

// Assembled from parts so this file never itself looks like it holds a credential.
const key = ['sk-', 'proj-', 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV'].join('');
const aws = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const refuse = { secretPolicy: 'refuse', piiRedaction: false } as const;
const pii = { secretPolicy: 'redact', piiRedaction: true } as const;

function refusal(run: () => unknown): MemoryError {
  try {
    run();
  } catch (error) {
    assert.ok(MemoryError.is(error, 'INVALID_INPUT'), String(error));
    return error;
  }
  throw new Error('nothing was refused');
}

describe('refusing a credential', () => {
  it('says what was found and what to do, and lists each kind once', () => {
    const error = refusal(() => guardText(`${key} and ${aws} and again ${key}`, refuse, 'content'));
    assert.equal(
      error.message,
      'content contains what looks like a credential (openai-key, aws-access-key); it was not stored. Remove the secret or reference it by name (e.g. "the DB password in the vault").',
    );
    assert.deepEqual(error.details, { field: 'content', secret_kinds: ['openai-key', 'aws-access-key'] });
  });

  it('passes clean text through untouched under the refuse policy', () => {
    assert.deepEqual(guardText('The deploy runs on Fridays', refuse), {
      content: 'The deploy runs on Fridays',
      redactions: [],
    });
  });

  it('names the content field when no field is given', () => {
    assert.equal(refusal(() => guardText(key, refuse)).details?.field, 'content');
  });

  it('names the field it was given, and a named value by its own name', () => {
    assert.equal(refusal(() => guardText(key, refuse, 'summary')).details?.field, 'summary');
    const named = refusal(() => guardNamedText('db_password', 'hunter2x', refuse, 'facts.value'));
    assert.deepEqual(named.details, { field: 'facts.value', secret_kinds: ['password-assignment'] });
  });

  it('names the path inside metadata: array entries by index, keys as keys, the top field as given', () => {
    assert.equal(refusal(() => guardJson({ list: ['ok', 'fine', key] }, refuse)).details?.field, 'metadata.list[2]');
    assert.equal(refusal(() => guardJson({ [key]: 1 }, refuse)).details?.field, 'metadata key');
    assert.equal(refusal(() => guardJson({ nested: { [key]: 1 } }, refuse)).details?.field, 'metadata.nested key');
    assert.equal(refusal(() => guardJson({ token: key }, refuse, 'config')).details?.field, 'config.token');
    assert.equal(refusal(() => guardJson([key], refuse, 'tags')).details?.field, 'tags[0]');
  });
});

describe('PII redaction', () => {
  it('redacts every e-mail address whole, including sub-domains and tags', () => {
    const result = guardText('to first.last+ci@mail.example.co.uk and ops@example.com', pii);
    assert.equal(result.content, 'to [REDACTED:email] and [REDACTED:email]');
    assert.deepEqual(result.redactions, [{ kind: 'email', count: 2 }]);
  });

  it('leaves what only resembles an address alone', () => {
    for (const text of ['user@localhost', 'a@b.c', '@scope/package', 'git@v2'])
      assert.equal(guardText(text, pii).content, text, text);
  });

  it('redacts phone numbers written with separators, in national and international shapes', () => {
    for (const phone of [
      '(415) 555-0132',
      '(415)555-0132',
      '415.555.0132',
      '+44 20 7946 0958',
      '+1-415-555-0132',
      '+1(415) 555-0132',
      '020 7946 0958',
    ]) {
      assert.equal(guardText(`call ${phone} today`, pii).content, 'call [REDACTED:phone] today', phone);
    }
  });

  it('leaves versions, dates, ids and numbers glued to words alone', () => {
    for (const text of [
      'v1.2.3',
      '2024-01-01',
      'build 20240101',
      'port 5432',
      'id415-555-0132',
      '415-555-0132x',
      'ip 10.0.0.1',
    ]) {
      assert.equal(guardText(text, pii).content, text, text);
    }
  });
});

describe('redactions of one value add up', () => {
  it('a named value holding a vendor key and a password reports both', () => {
    const { content, redactions } = guardNamedText('db_password', `hunter2x ${key}`, redact, 'metadata.db_password');
    assert.equal(content, '[REDACTED:password-assignment]');
    assert.deepEqual(redactions, [
      { kind: 'openai-key', count: 1 },
      { kind: 'password-assignment', count: 1 },
    ]);
  });

  it('a name that holds no credential leaves its value to the text rules', () => {
    assert.deepEqual(guardNamedText('comment', 'hunter2x', redact, 'metadata.comment'), {
      content: 'hunter2x',
      redactions: [],
    });
  });

  it('metadata keeps numbers, booleans and null as they are and counts redactions across keys and values', () => {
    const { value, redactions } = guardJson({ n: 3, ok: true, none: null, list: [1, key, aws], [aws]: key }, redact);
    assert.deepEqual(value, {
      n: 3,
      ok: true,
      none: null,
      list: [1, '[REDACTED:openai-key]', '[REDACTED:aws-access-key]'],
      '[REDACTED:aws-access-key]': '[REDACTED:openai-key]',
    });
    assert.deepEqual(redactions, [
      { kind: 'openai-key', count: 2 },
      { kind: 'aws-access-key', count: 2 },
    ]);
    assert.deepEqual(guardJson(key, redact), {
      value: '[REDACTED:openai-key]',
      redactions: [{ kind: 'openai-key', count: 1 }],
    });
  });

  it('mergeRedactions sums each kind across lists, in order of first appearance', () => {
    assert.deepEqual(
      mergeRedactions(
        [
          { kind: 'a', count: 1 },
          { kind: 'b', count: 2 },
        ],
        [],
        [
          { kind: 'b', count: 3 },
          { kind: 'c', count: 1 },
        ],
      ),
      [
        { kind: 'a', count: 1 },
        { kind: 'b', count: 5 },
        { kind: 'c', count: 1 },
      ],
    );
    assert.deepEqual(mergeRedactions(), []);
  });
});
