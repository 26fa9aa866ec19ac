import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * What a credential-named setting may hold without being a secret (docs/lifecycle.md "Secret
 * detection", "Left alone"): a version, a path, a URL or URN, a `user:password` stand-in, a path
 * in code (`self.db.password`), a variable's name (`db_api_key`, `dbApiKey`), a constant's name
 * (`FlowPasswordRequiredResultV2`), what is left of a value already redacted. Each shape is left
 * as written, and a real value that only starts or ends like one, or holds a letter more than the
 * shape allows, is redacted: the shape must be the whole value. Quotes of every kind (", ', `, “ ”)
 * are not part of the value, and the value is judged without the spaces around it.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const SECRET = '[REDACTED:secret-assignment]';
const PASSWORD = '[REDACTED:password-assignment]';

const LEFT_ALONE = [
  'api_token = v1.2.3',
  'api_token = 10.20.30-beta',
  'api_token = 10.2',
  'password = /run/secrets/db',
  'password = ../secrets/db',
  'password = ./db.pass',
  'password = ~/.pgpass',
  'password = https://vault/x',
  'password = urn:vault:db',
  'password = user:password',
  'password = admin:pass',
  'password = self.db.password',
  'password = this.#config.secret!',
  'password = this.secret?',
  'api_key = db_api_key',
  'api_key = dbApiKey',
  'api_key = db-api-key',
  'api_key = dbAPIKey',
  'api_key = myAuthKey2',
  'api_key = "prod-api-key"',
  'password = "[REDACTED]"',
  'password = "[REDACTED BY ADMIN]"',
  'password = "secrets/prod/db"',
  '<password> changeme </password>',
  'password = "[REDACTED:private-key-block]\\r\\n"',
  'api_token = "FlowPasswordRequiredResultV2"',
  'api_token = "CreateUserRequestHandler"',
  'api_token = "CreateUserRequestHandlerV12"',
  'password = "[REDACTED:private-key-block]\\n"',
  'password = "[REDACTED:jwt] abc"',
];

const REDACTED: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['api_token = 1.2.3Zx9qT4vK8m!', `api_token = ${SECRET}`],
  ['api_token = Zx9qT4vK8m!-1.2.3', `api_token = ${SECRET}`],
  ['password = Zx9q/T4vK8m', `password = ${PASSWORD}`],
  ['password = Zx9q../T4vK8m', `password = ${PASSWORD}`],
  ['password = Zx9q!user:password', `password = ${PASSWORD}`],
  ['password = user:password9', `password = ${PASSWORD}`],
  ['password = Zx9!this.secret', `password = ${PASSWORD}`],
  ['password = "db.main Tr0ub4dor&3"', `password = "${PASSWORD}"`],
  ['api_token = "prod-env-Zx9qT4vK8mW2"', `api_token = "${SECRET}"`],
  ['password = "${PREFIX}Tr0ub4dor&3"', `password = "${PASSWORD}"`],
  ['api_key = "svc_key:Zx9qT4vK8mW2"', `api_key = "${SECRET}"`],
  ['postgres://app:a1b@db', 'postgres://app:[REDACTED:connection-string-credentials]@db'],
  ['api_key = dbApiKey9!', `api_key = ${SECRET}`],
  ['api_key = Zx9!db_api_key', `api_key = ${SECRET}`],
  ['password = "Swordfish"', `password = "${PASSWORD}"`],
  ['api_token = "CreateUserRequestHandler9x!"', `api_token = "${SECRET}"`],
  ['api_token = "9xCreateUserRequestHandler"', `api_token = "${SECRET}"`],
  ['password = "[REDACTED:jwt]Zx9qT4vK"', `password = "${PASSWORD}"`],
  ['password = "[REDACTED:jwt]abcd"', `password = "${PASSWORD}"`],
  ['password = `Tr0ub4dor&3`', `password = \`${PASSWORD}\``],
  ['password = "  Zx9qT4  "', `password = "${PASSWORD}"`],
  ['my passphrase is “correct horse battery staple”', 'my passphrase is “[REDACTED:password-in-prose]”'],
];

describe('a credential setting whose value is a stand-in shape', () => {
  for (const text of LEFT_ALONE) {
    it(`leaves ${JSON.stringify(text)} as written`, () => {
      assert.equal(guardText(text, redact).content, text);
    });
  }
  for (const [text, expected] of REDACTED) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(guardText(text, redact).content, expected);
    });
  }
});
