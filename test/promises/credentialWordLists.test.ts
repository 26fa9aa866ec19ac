import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../src/core/safety/contentGuard.ts';
import {
  classifyCredentialName,
  DESCRIPTORS,
  KEY_QUALIFIERS,
  PASSWORD_WORDS,
  SECRET_WORDS,
} from '../../src/core/safety/credentialName.ts';
import { PLACEHOLDER_WORDS } from '../../src/core/safety/secretValue.ts';

/**
 * The word lists behind "a credential-like name and a value that is not a reference" (README
 * "Secret detection"), tested member by member: every word that names a password or a secret makes
 * a setting's value redacted, every key qualifier makes `<qualifier>_key` a credential, every
 * descriptor makes a credential name describe one instead (`password_min_length`), every stand-in
 * value is left as written. A word added to a list is tested by being there; a word that stops
 * working fails its own test.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const VALUE = 'Zx9qT4vK8mW2nR7pL5sY';
const redactedAs = (text: string): string | null =>
  /\[REDACTED:([a-z-]+)\]/.exec(guardText(text, redact).content)?.[1] ?? null;
const upper = (word: string): string => word.toUpperCase();

/**
 * The stand-in values a credential-named setting may hold without being redacted, written out here
 * rather than read from secretValue.ts: a word dropped from the code's list fails its own test
 * below, and a word added there without being added here fails "the lists are read".
 */
const STAND_INS = [
  'changeme',
  'change_me',
  'change-me',
  'example',
  'dummy',
  'placeholder',
  'redacted',
  'hidden',
  'masked',
  'todo',
  'tbd',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'required',
  'optional',
  'empty',
  'string',
  'str',
  'number',
  'int',
  'integer',
  'boolean',
  'bool',
  'bytes',
  'any',
  'unknown',
  'object',
  'secretstr',
  'password',
  'passwd',
  'secret',
  'token',
  'pass',
  'pwd',
  'apikey',
  'api_key',
  'key',
] as const;

describe('every word of the credential-name lists does what its list says', () => {
  it('the lists are read', () => {
    assert.ok(PASSWORD_WORDS.size >= 5 && SECRET_WORDS.size >= 10 && KEY_QUALIFIERS.size >= 10);
    assert.ok(DESCRIPTORS.size >= 50 && PLACEHOLDER_WORDS.size >= 30);
    assert.deepEqual(
      [...PLACEHOLDER_WORDS].filter((word) => !(STAND_INS as readonly string[]).includes(word)),
      [],
      'stand-ins of secretValue.ts with no test here',
    );
  });

  for (const word of PASSWORD_WORDS) {
    it(`password word ${word}: DB_${upper(word)}=… is a password setting, its value redacted`, () => {
      assert.equal(classifyCredentialName(`db_${word}`), 'password');
      assert.equal(classifyCredentialName(`db${word[0]!.toUpperCase()}${word.slice(1)}`), 'password');
      assert.equal(redactedAs(`DB_${upper(word)}=${VALUE}`), 'password-assignment');
    });
  }

  for (const word of SECRET_WORDS) {
    it(`secret word ${word}: DEPLOY_${upper(word)}=… is a secret setting, its value redacted`, () => {
      assert.equal(classifyCredentialName(`deploy_${word}`), 'secret');
      assert.equal(redactedAs(`DEPLOY_${upper(word)}=${VALUE}`), 'secret-assignment');
    });
  }

  for (const qualifier of KEY_QUALIFIERS) {
    it(`key qualifier ${qualifier}: ${qualifier}_key holds a credential, the key alone does not`, () => {
      assert.equal(classifyCredentialName(`${qualifier}_key`), 'secret');
      assert.equal(redactedAs(`${upper(qualifier)}_KEY=${VALUE}`), 'secret-assignment');
      assert.equal(classifyCredentialName(`sort_key`), null);
    });
  }

  for (const descriptor of DESCRIPTORS) {
    it(`descriptor ${descriptor}: password_${descriptor} describes a credential and its value is kept`, () => {
      assert.equal(classifyCredentialName(`password_${descriptor}`), null);
      assert.equal(classifyCredentialName(`api_key_${descriptor}`), null);
      const setting = `PASSWORD_${upper(descriptor)}=${VALUE}`;
      assert.equal(guardText(setting, redact).content, setting);
    });
  }

  for (const word of STAND_INS) {
    it(`stand-in ${word}: DB_PASSWORD=${word} is left as written`, () => {
      for (const setting of [`DB_PASSWORD=${word}`, `api_key: "${word}"`])
        assert.equal(guardText(setting, redact).content, setting);
      // A real value that starts with the word is no stand-in (words naming a credential aside:
      // a value holding one is read as a reference to it, by design of secretValue.ts).
      if (!/pass|pwd|secret|token|key/.test(word))
        assert.equal(
          redactedAs(`DB_PASSWORD=${word}${VALUE}`),
          'password-assignment',
          'a real value that starts with the word is not a stand-in',
        );
    });
  }
});
