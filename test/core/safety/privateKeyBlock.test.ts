import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPrivateKeyBlocks } from '../../../src/core/safety/privateKeyBlock.ts';
import { redactSecrets } from '../../../src/core/safety/secretDetector.ts';

// Assembled from parts so this file never itself looks like it holds a key.
const j = (...parts: string[]): string => parts.join('');
const BODY = [
  'MIIEowIBAAKCAQEA1x2y3z4AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/abc',
  'dEfGhIjKlMnOpQrStUvWxYz0123456789+/abcdefghijklmnopqrstuvwxyzABCD',
  'Qk9EWQ==',
];
const block = (label: string, eol: string): string =>
  j('-----BEGIN ', label, '-----', eol, BODY.join(eol), eol, '-----END ', label, '-----');

for (const label of [
  'RSA PRIVATE KEY',
  'PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
  'EC PRIVATE KEY',
  'DSA PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
  'PGP PRIVATE KEY BLOCK',
]) {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['JSON \\n escapes', '\\n'],
  ]) {
    test(`${label} with ${name} line ends is replaced from BEGIN to END, the text around it kept`, () => {
      const text = j('before ', block(label, eol), ' after');
      assert.equal(redactSecrets(text), 'before [REDACTED:private-key-block] after');
    });
  }
}

test('a key inside a JSON service-account file leaves the rest of the JSON intact', () => {
  const text = j(
    '{"type":"service_account","private_key":"',
    block('PRIVATE KEY', '\\n'),
    '\\n","client_email":"ci@p.iam.gserviceaccount.com"}',
  );
  assert.equal(
    redactSecrets(text),
    '{"type":"service_account","private_key":"[REDACTED:private-key-block]\\n","client_email":"ci@p.iam.gserviceaccount.com"}',
  );
});

test('a block cut off before its END line is replaced through its last base64 line, not beyond', () => {
  const text = j(
    '-----BEGIN ',
    'RSA PRIVATE KEY-----\n',
    BODY[0],
    '\n',
    BODY[1],
    '\n\nI pasted only half of it, sorry.',
  );
  assert.equal(redactSecrets(text), '[REDACTED:private-key-block]\n\nI pasted only half of it, sorry.');
});

test('armour headers of an encrypted PKCS#1 key are part of the block', () => {
  const text = j(
    '-----BEGIN ',
    'RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n',
    BODY.join('\n'),
    '\n-----END ',
    'RSA PRIVATE KEY-----',
  );
  assert.equal(redactSecrets(text), '[REDACTED:private-key-block]');
});

test('an END line of another kind does not close the block early', () => {
  const text = j(
    '-----BEGIN ',
    'EC PRIVATE KEY-----\n',
    BODY[0],
    '\n-----END CERTIFICATE-----\n',
    BODY[1],
    '\n-----END ',
    'EC PRIVATE KEY-----\ntail',
  );
  assert.equal(redactSecrets(text), '[REDACTED:private-key-block]\ntail');
});

test('two keys in one text are two redactions', () => {
  const text = j(block('RSA PRIVATE KEY', '\n'), '\nand\n', block('OPENSSH PRIVATE KEY', '\n'));
  assert.equal(redactSecrets(text), '[REDACTED:private-key-block]\nand\n[REDACTED:private-key-block]');
  assert.equal(findPrivateKeyBlocks(text).length, 2);
});

test('a PuTTY key file is replaced through its Private-MAC line', () => {
  const text = j(
    'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n',
    BODY[0],
    '\nPrivate-MAC: 0a1b2c3d4e5f\nnext',
  );
  assert.equal(redactSecrets(text), '[REDACTED:private-key-block]\nnext');
});

test('certificates and public keys are not private keys', () => {
  const certificate = j('-----BEGIN CERTIFICATE-----\n', BODY.join('\n'), '\n-----END CERTIFICATE-----');
  const publicKey = j('-----BEGIN PUBLIC KEY-----\n', BODY.join('\n'), '\n-----END PUBLIC KEY-----');
  assert.deepEqual(findPrivateKeyBlocks(`${certificate}\n${publicKey}`), []);
  assert.equal(redactSecrets(certificate), certificate);
});
