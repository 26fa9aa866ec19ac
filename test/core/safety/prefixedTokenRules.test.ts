import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findSecrets, redactSecrets } from '../../../src/core/safety/secretDetector.ts';
import type { SecretKind } from '../../../src/core/safety/secretKinds.ts';

// Assembled from parts so this file never itself looks like it holds a credential.
const j = (...parts: string[]): string => parts.join('');
const alnum = (length: number): string => 'a1B2c3D4e5F6g7H8i9J0'.repeat(20).slice(0, length);
const hex = (length: number): string => '0a1b2c3d4e5f6789'.repeat(20).slice(0, length);

/** The shortest token each rule takes, and the same token one character short, which it must not take. */
const THRESHOLDS: Array<[SecretKind, (body: number) => string, number]> = [
  ['openai-key', (n) => j('sk-', alnum(n)), 20],
  ['openai-key', (n) => j('sk-', 'proj-', alnum(n)), 20],
  ['anthropic-key', (n) => j('sk-', 'ant-', alnum(n)), 32],
  ['github-token', (n) => j('gh', 'p_', alnum(n)), 30],
  ['github-token', (n) => j('github_', 'pat_', alnum(n)), 40],
  ['gitlab-token', (n) => j('gl', 'pat-', alnum(n)), 20],
  ['aws-access-key', (n) => j('AKIA', 'IOSFODNN7EXAMPLEQ'.slice(0, n)), 16],
  ['google-api-key', (n) => j('AIza', alnum(n)), 35],
  ['slack-token', (n) => j('xo', 'xb-', alnum(n)), 10],
  ['stripe-key', (n) => j('sk_', 'live_', alnum(n)), 16],
  ['huggingface-token', (n) => j('hf', '_', alnum(n)), 30],
  ['npm-token', (n) => j('npm', '_', alnum(n)), 36],
  ['twilio-key', (n) => j('SK', hex(n)), 32],
  ['databricks-token', (n) => j('dapi', hex(n)), 32],
  ['vault-token', (n) => j('hvs', '.', alnum(n)), 24],
  ['pypi-token', (n) => j('pypi-', 'AgE', alnum(n)), 50],
];

for (const [kind, make, minimum] of THRESHOLDS) {
  const at = make(minimum);
  test(`${kind}: ${at.slice(0, 12)}… of ${minimum} body characters is taken whole, one fewer is not`, () => {
    assert.equal(redactSecrets(`x ${at} y`), `x [REDACTED:${kind}] y`);
    assert.deepEqual(
      findSecrets(`x ${make(minimum - 1)} y`).filter((finding) => finding.kind === kind),
      [],
    );
  });
}

test('a token glued to a longer word is not a vendor token', () => {
  assert.deepEqual(findSecrets(j('desk-', alnum(30))), []);
  assert.deepEqual(findSecrets(j('xAKIA', 'IOSFODNN7EXAMPLE')), []);
  assert.deepEqual(findSecrets(j('git checkout -b feature/sk-', '1234-rotate-the-login-redirect-handler')), []);
});

test('an Azure connection string keeps its names; only the key is replaced', () => {
  const text = j(
    'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=',
    alnum(86),
    '==;EndpointSuffix=core.windows.net',
  );
  assert.equal(
    redactSecrets(text),
    'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
  );
});

test('a SAS URL keeps its path and parameters; only the signature is replaced', () => {
  const text = j('https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=', alnum(43), '%3D');
  assert.equal(
    redactSecrets(text),
    'https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=[REDACTED:azure-sas-token]',
  );
});

test('an AWS secret key is taken near "aws" or "secret key" only, and never a git SHA', () => {
  const secret = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');
  assert.equal(redactSecrets(`aws secret: ${secret}`), 'aws secret: [REDACTED:aws-secret-key]');
  assert.equal(redactSecrets(`the build id is ${secret}`), `the build id is ${secret}`);
  const sha = '9fceb02d0ae598e95dc970b74767f19372d61af8';
  assert.equal(redactSecrets(`aws sdk bumped in ${sha}`), `aws sdk bumped in ${sha}`);
});
