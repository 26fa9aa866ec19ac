import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';
import { SECRET_KINDS } from '../../../src/core/safety/secretKinds.ts';
import { CREDENTIAL_CORPUS } from './credentialCorpus.ts';
import { LOOK_ALIKE_CORPUS } from './lookAlikeCorpus.ts';

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;

/** A sample is caught when none of its secret characters survive and its kind labels the gap. */
function caught(sample: (typeof CREDENTIAL_CORPUS)[number]): boolean {
  const { content, redactions } = guardText(sample.text, redact);
  return (
    sample.secrets.every((secret) => !content.includes(secret)) &&
    content.includes(`[REDACTED:${sample.kind}]`) &&
    redactions.some((entry) => entry.kind === sample.kind)
  );
}

for (const [index, sample] of CREDENTIAL_CORPUS.entries()) {
  test(`credential corpus #${index} (${sample.kind}) is redacted under its kind`, () => {
    const { content } = guardText(sample.text, redact);
    for (const secret of sample.secrets)
      assert.ok(!content.includes(secret), `${sample.kind} leaked in ${JSON.stringify(content)}`);
    assert.ok(
      content.includes(`[REDACTED:${sample.kind}]`),
      `expected [REDACTED:${sample.kind}] in ${JSON.stringify(content)}`,
    );
  });
}

test('at least 95 % of the credential corpus is caught, and it covers every kind the detector names', () => {
  const rate = CREDENTIAL_CORPUS.filter(caught).length / CREDENTIAL_CORPUS.length;
  assert.ok(rate >= 0.95, `caught ${(rate * 100).toFixed(1)} %`);
  assert.ok(CREDENTIAL_CORPUS.length >= 100);
  const covered = new Set(CREDENTIAL_CORPUS.map((sample) => sample.kind));
  assert.deepEqual(
    SECRET_KINDS.filter((kind) => !covered.has(kind)),
    [],
  );
});

for (const [index, text] of LOOK_ALIKE_CORPUS.entries()) {
  test(`look-alike #${index} is left exactly as written: ${JSON.stringify(text.slice(0, 50))}`, () => {
    assert.deepEqual(guardText(text, redact), { content: text, redactions: [] });
  });
}

test('the look-alike corpus is broad and none of it is altered', () => {
  assert.ok(LOOK_ALIKE_CORPUS.length >= 70);
  assert.deepEqual(
    LOOK_ALIKE_CORPUS.filter((text) => guardText(text, redact).content !== text),
    [],
  );
});

test('redaction is idempotent: redacted text passes the gate again unchanged (an update that keeps it changes nothing)', () => {
  for (const sample of CREDENTIAL_CORPUS) {
    const once = guardText(sample.text, redact).content;
    assert.deepEqual(guardText(once, redact), { content: once, redactions: [] }, once);
  }
});
