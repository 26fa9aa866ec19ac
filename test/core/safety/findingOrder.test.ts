// What the detector reports: findings in text order, the longest first at one position, spans
// that cover exactly the secret group of a rule, and containsSecret agreeing with findSecrets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containsSecret, findSecrets, redactSecrets } from '../../../src/core/safety/secretDetector.ts';

// Assembled from parts so this file never itself looks like it holds a credential.
const j = (...parts: string[]): string => parts.join('');
const aws = j('AKIA', 'IOSFODNN7EXAMPLE');
const openai = j('sk-', 'proj-', 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV');
const azureKey = j('Zm9v', 'YmFy'.repeat(10), '==');

describe('findSecrets', () => {
  it('reports findings in the order they appear in the text, whatever rule found them', () => {
    // The OpenAI rule runs before the AWS rule; the AWS key comes first in the text.
    const text = `first ${aws} then ${openai}`;
    assert.deepEqual(findSecrets(text), [
      { kind: 'aws-access-key', index: 6, length: aws.length },
      { kind: 'openai-key', index: 6 + aws.length + 6, length: openai.length },
    ]);
  });

  it('at one position the longest finding comes first', () => {
    // The Azure rule takes the key up to its padding; the setting's value runs on past it.
    const text = `AccountKey=${azureKey}xyz`;
    const found = findSecrets(text);
    assert.deepEqual(
      found.map((finding) => [finding.kind, finding.index, finding.length]),
      [
        ['secret-assignment', 11, azureKey.length + 3],
        ['azure-storage-key', 11, azureKey.length],
      ],
    );
  });

  it('a rule with a secret group reports exactly that group, so the text around it stays', () => {
    const text = `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${azureKey};EndpointSuffix=core.windows.net`;
    const finding = findSecrets(text).find((entry) => entry.kind === 'azure-storage-key');
    assert.deepEqual(finding, { kind: 'azure-storage-key', index: text.indexOf(azureKey), length: azureKey.length });
    assert.equal(
      redactSecrets(text),
      'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
    );
  });

  it('containsSecret says yes exactly when there is a finding', () => {
    assert.equal(containsSecret(`key ${openai}`), true);
    assert.equal(containsSecret('no key here'), false);
  });
});
