import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * How a setting's name is read (docs/lifecycle.md "Secret detection": `DB_PASSWORD=`,
 * `SECRET_KEY=`, `api_key:`, `client_secret`, and names that describe a credential left alone):
 * "pass" is a password only as the last word (`DB_PASS`, not `PASS_THROUGH`), a separator at the
 * end of a name changes nothing, joined spellings count when they end in the credential word
 * (`adminpassword`, `clientsecret`, `openaiapikey`) and not when they only start with it
 * (`passwordless`, `secretname`), and a word that merely contains "key" (`KEYBOARD`) is not "key".
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const PASSWORD = '[REDACTED:password-assignment]';
const SECRET = '[REDACTED:secret-assignment]';
const VALUE = 'Zx9qT4vK8mW2';

const CASES: ReadonlyArray<readonly [name: string, expected: string]> = [
  ['DB_PASS', PASSWORD],
  ['DB_PASS_', PASSWORD],
  ['PASS_THROUGH', VALUE],
  ['adminpassword', PASSWORD],
  ['passwordless', VALUE],
  ['clientsecret', SECRET],
  ['openaiapikey', SECRET],
  ['secretname', VALUE],
  ['apikeyring', VALUE],
  ['APP_KEYBOARD', VALUE],
  ['AWSSecretKey', SECRET],
  ['X_API_KEY', SECRET],
  ['API_KEY_ID', VALUE],
];

describe('a setting’s name: which names hold a credential', () => {
  for (const [name, expected] of CASES) {
    it(`${name}=${VALUE} → ${name}=${expected}`, () => {
      assert.equal(guardText(`${name}=${VALUE}`, redact).content, `${name}=${expected}`);
    });
  }
});
