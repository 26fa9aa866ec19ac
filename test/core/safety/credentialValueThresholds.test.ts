import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * The lengths at which a credential-named setting's value counts as a secret, each on both sides
 * of its edge: a password from 6 characters bare and 4 quoted (or in an XML element, or quoted in
 * prose); a secret (token, key) from 8, without spaces, and bare only when it looks generated or
 * is 20 characters or more. After `password:` a bare value followed by more words is a sentence
 * unless the value looks generated; after `=` it is a setting whatever follows.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const PASSWORD = '[REDACTED:password-assignment]';
const SECRET = '[REDACTED:secret-assignment]';

const CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['password=abcde1', `password=${PASSWORD}`],
  ['password=abcd1', 'password=abcd1'],
  ['password="ab1!"', `password="${PASSWORD}"`],
  ['password="ab1"', 'password="ab1"'],
  ['api_key="abcdefg1"', `api_key="${SECRET}"`],
  ['api_key="abcdef1"', 'api_key="abcdef1"'],
  ['api_key="abcd efg1"', 'api_key="abcd efg1"'],
  ['api_key=abcdefg1', `api_key=${SECRET}`],
  ['api_key=abcdef1', 'api_key=abcdef1'],
  ['api_key=abcdefghijklmnopqrst', `api_key=${SECRET}`],
  ['api_key=abcdefghijklmnopqrs', 'api_key=abcdefghijklmnopqrs'],
  ['<password>abcd</password>', `<password>${PASSWORD}</password>`],
  ['<password>abc</password>', '<password>abc</password>'],
  ['<password> ab </password>', '<password> ab </password>'],
  ['<api_key>Zx9qT4vK8m</api_key>', `<api_key>${SECRET}</api_key>`],
  ['<api_key>${KEY}</api_key>', '<api_key>${KEY}</api_key>'],
  ['<username>deploy</username>', '<username>deploy</username>'],
  ['<host>db.internal</host>', '<host>db.internal</host>'],
  ['the password is "abcd"', 'the password is "[REDACTED:password-in-prose]"'],
  ['the password is "abc"', 'the password is "abc"'],
  ['the password is " ab "', 'the password is " ab "'],
  // Bare in prose: generated-looking from 6 characters.
  ['the password is abc123.', 'the password is [REDACTED:password-in-prose].'],
  ['the password is abc12.', 'the password is abc12.'],
  // After a colon: a plain word with more words behind it is prose; a generated value is not.
  ['password: swordfish', `password: ${PASSWORD}`],
  ['password: swordfish please', 'password: swordfish please'],
  ['password: swordfish  please', 'password: swordfish  please'],
  ['password: hunter2x please', `password: ${PASSWORD} please`],
  ['password: swordfish # rotated monthly', `password: ${PASSWORD} # rotated monthly`],
  ['password = swordfish please', `password = ${PASSWORD} please`],
  ['DB_PASSWORD=swordfish', `DB_PASSWORD=${PASSWORD}`],
];

describe('the lengths at which a credential setting’s value is a secret', () => {
  for (const [text, expected] of CASES) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(guardText(text, redact).content, expected);
    });
  }
});
