import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * The forms of the credentials found by their surroundings (docs/lifecycle.md "Secret detection":
 * an AWS secret key near "aws" / "secret key", `Authorization:` headers, URL passwords), each
 * spelling the documentation allows and the near misses on each side of it: "secret key" written
 * with a space, underscore, dash or nothing and with "access" or without, a key within 80
 * characters on its line and one further or on the next line, header values after any spacing,
 * `Basic` only where a header or a quoted value puts it, a URL password of any scheme with or
 * without a user, and the stand-ins and references a URL's password may be.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
/** An AWS secret key's shape: 40 base64 characters mixing upper case, lower case, digits and `/`. */
const KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ4mT8vN2x';
const AWS = '[REDACTED:aws-secret-key]';
const BEARER = '[REDACTED:bearer-token]';
const BASIC = '[REDACTED:basic-auth]';
const URL_PW = '[REDACTED:connection-string-credentials]';
/** A git commit id: 40 hex characters, lower case; never an AWS secret key. */
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';

const AWS_CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  [`the secret key is ${KEY}`, `the secret key is ${AWS}`],
  [`secret_key ${KEY}`, `secret_key ${AWS}`],
  [`secret-key ${KEY}`, `secret-key ${AWS}`],
  [`SecretKey ${KEY}`, `SecretKey ${AWS}`],
  [`the secret access key is ${KEY}`, `the secret access key is ${AWS}`],
  [`secret_access_key ${KEY}`, `secret_access_key ${AWS}`],
  [`secret-access-key ${KEY}`, `secret-access-key ${AWS}`],
  [`SecretAccessKey ${KEY}`, `SecretAccessKey ${AWS}`],
  [`amazon gave us ${KEY}`, `amazon gave us ${AWS}`],
  [`AWS: ${KEY}`, `AWS: ${AWS}`],
  [`aws_secret_access_key = ${KEY}`, `aws_secret_access_key = ${AWS}`],
  // 80 characters between the word and the key (spaces included) are near; 81, or a line break, are not.
  [`aws ${'.'.repeat(78)} ${KEY}`, `aws ${'.'.repeat(78)} ${AWS}`],
  [`aws ${'.'.repeat(79)} ${KEY}`, `aws ${'.'.repeat(79)} ${KEY}`],
  [`aws\n${KEY}`, `aws\n${KEY}`],
  // 41 characters, or 40 inside a longer run: another thing.
  [`aws ${KEY}Q`, `aws ${KEY}Q`],
  [`aws Q${KEY}`, `aws Q${KEY}`],
  [`aws ${KEY}=`, `aws ${KEY}=`],
  // One case only, or letters only: not a generated key (a git SHA is lower-case hex).
  [`aws ${SHA}`, `aws ${SHA}`],
  [`aws ${KEY.toLowerCase()}`, `aws ${KEY.toLowerCase()}`],
  [`aws ${KEY.toUpperCase()}`, `aws ${KEY.toUpperCase()}`],
  [`aws ${'wJalrXUtnFEMIaKbMDENGabPxRfiCYzQcmTdvNex'}`, `aws ${'wJalrXUtnFEMIaKbMDENGabPxRfiCYzQcmTdvNex'}`],
  [`an access key ${KEY}`, `an access key ${KEY}`],
];

const HEADER_CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['Authorization: Bearer a1b2c3d4e5f6g7h8', `Authorization: Bearer ${BEARER}`],
  ['Authorization: Bearer  a1b2c3d4e5f6g7h8', `Authorization: Bearer  ${BEARER}`],
  ['Authorization: Bearer\ta1b2c3d4e5f6g7h8', `Authorization: Bearer\t${BEARER}`],
  ['authorization: bearer a1b2c3d4e5f6g7h8', `authorization: bearer ${BEARER}`],
  ['Bearer eyJhbGciOiJIUzI1NiJ9.abc-_~+/x==', `Bearer ${BEARER}`],
  // Letters only, but 32 or more: generated all the same.
  [`Authorization: Bearer ${'abcdefgh'.repeat(4)}`, `Authorization: Bearer ${BEARER}`],
  [`Authorization: Bearer ${'abcdefgh'.repeat(4).slice(1)}`, `Authorization: Bearer ${'abcdefgh'.repeat(4).slice(1)}`],
  // Digits only, or shorter than 16: not a token.
  ['Authorization: Bearer 1234567890123456', `Authorization: Bearer 1234567890123456`],
  ['Authorization: Bearer a1b2c3d4e5f6g7h', 'Authorization: Bearer a1b2c3d4e5f6g7h'],
  [
    'WWW-Authenticate: Bearer authorization_uri=https://login.example.com',
    'WWW-Authenticate: Bearer authorization_uri=https://login.example.com',
  ],
  ['Authorization: Basic dXNlcjpwYXNzd29yZA==', `Authorization: Basic ${BASIC}`],
  ['Authorization:Basic dXNlcjpwYXNzd29yZA==', `Authorization:Basic ${BASIC}`],
  ['Authorization: Basic  dXNlcjpwYXNzd29yZA==', `Authorization: Basic  ${BASIC}`],
  ['Authorization: Basic dXNlcjpw', `Authorization: Basic ${BASIC}`],
  ["headers['Authorization'] = 'Basic dXNlcjpwYXNzd29yZA=='", `headers['Authorization'] = 'Basic ${BASIC}'`],
  ['auth = "Basic dXNlcjpwYXNzd29yZA=="', `auth = "Basic ${BASIC}"`],
  ['Authorization : Basic dXNlcjpwYXNzd29yZA==', `Authorization : Basic ${BASIC}`],
  ["credentials = ' Basic dXNlcjpwYXNzd29yZA=='", `credentials = ' Basic ${BASIC}'`],
  // Seven characters, a longer run, or prose that names the scheme: left alone.
  ['Authorization: none. Basic fallback is disabled', 'Authorization: none. Basic fallback is disabled'],
  ['The "auth" option enables Basic fallback', 'The "auth" option enables Basic fallback'],
  ['Authorization: Basic dXNlcjp', 'Authorization: Basic dXNlcjp'],
  ['Authorization: Basic dXNlcjpwYXNzd29yZA==x', 'Authorization: Basic dXNlcjpwYXNzd29yZA==x'],
  ['the Basic dXNlcjpwYXNzd29yZA== scheme', 'the Basic dXNlcjpwYXNzd29yZA== scheme'],
  ['Use HTTP Basic authentication for the admin API', 'Use HTTP Basic authentication for the admin API'],
  // After a quote, only a value that decodes to user:password (RFC 7617) is a credential.
  ['{"mode": "Basic fallback"}', '{"mode": "Basic fallback"}'],
  ["auth: 'Basic authentication'", "auth: 'Basic authentication'"],
  ['auth = "Basic ZGVwbG95OnMzY3IzdA"', `auth = "Basic ${BASIC}"`],
  // A value cut after 4n+1 characters (not whole base64) is judged by its whole groups.
  ['auth = "Basic dXNlcjpwY"', `auth = "Basic ${BASIC}"`],
];

const URL_CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['postgres://app:Zx9qT4vK8m@db.internal:5432/app', `postgres://app:${URL_PW}@db.internal:5432/app`],
  ['redis://:Zx9qT4vK8m@cache:6379', `redis://:${URL_PW}@cache:6379`],
  ['mongodb+srv://app:Zx9qT4vK8m@cluster0.example.net/db', `mongodb+srv://app:${URL_PW}@cluster0.example.net/db`],
  ['amqp://guest:Zx9qT4vK8m@mq', `amqp://guest:${URL_PW}@mq`],
  ['DATABASE_URL=mysql://root:Zx9qT4vK8m@127.0.0.1/shop', `DATABASE_URL=mysql://root:${URL_PW}@127.0.0.1/shop`],
  ['"https://deploy:Zx9qT4vK8m@git.example.com/repo.git"', `"https://deploy:${URL_PW}@git.example.com/repo.git"`],
  // Two URLs joined by `;` or `,` (a connection list): both passwords go.
  [
    'A=postgres://u:Zx9qT4vK8m@h1;B=postgres://u:Qw8rT5yU7i@h2',
    `A=postgres://u:${URL_PW}@h1;B=postgres://u:${URL_PW}@h2`,
  ],
  ['postgres://u:Zx9qT4vK8m@h1,postgres://u:Qw8rT5yU7i@h2', `postgres://u:${URL_PW}@h1,postgres://u:${URL_PW}@h2`],
  // Documentation's example passwords, references and masks stay as written.
  ['postgres://app:password@db', 'postgres://app:password@db'],
  ['postgres://app:pass@db', 'postgres://app:pass@db'],
  ['postgres://app:pwd@db', 'postgres://app:pwd@db'],
  ['postgres://app:secret@db', 'postgres://app:secret@db'],
  ['https://user:changeme@example.com', 'https://user:changeme@example.com'],
  ['https://user:example@example.com', 'https://user:example@example.com'],
  ['https://user:xxxx@example.com', 'https://user:xxxx@example.com'],
  ['https://user:****@example.com', 'https://user:****@example.com'],
  ['https://user:**@example.com', 'https://user:**@example.com'],
  ['https://user:xx@example.com', 'https://user:xx@example.com'],
  ['https://user:passw0rd@example.com', `https://user:${URL_PW}@example.com`],
  ['https://user:Secret-42@example.com', `https://user:${URL_PW}@example.com`],
  ['https://user:${DB_PASSWORD}@db', 'https://user:${DB_PASSWORD}@db'],
  // No host after the @, or no scheme: not a URL with credentials.
  ['https://user:Zx9qT4vK8m@', 'https://user:Zx9qT4vK8m@'],
  ['user:Zx9qT4vK8m@db', 'user:Zx9qT4vK8m@db'],
  ['git@github.com:org/repo.git', 'git@github.com:org/repo.git'],
  ['http://localhost:8080/health', 'http://localhost:8080/health'],
];

/** `curl -u`, a continuation line of it, an .npmrc auth line however it is spaced, .pgpass lines. */
const COMMAND_CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['curl -u  deploy:Zx9qT4vK8mW2 https://x', `curl -u  deploy:${BASIC} https://x`],
  ['--user deploy:Zx9qT4vK8mW2 https://x', `--user deploy:${BASIC} https://x`],
  ['_auth=Zx9qT4vK8mW2nR7p', '_auth=[REDACTED:npm-token]'],
  ['always-auth=true\n_auth=Zx9qT4vK8mW2nR7p', 'always-auth=true\n_auth=[REDACTED:npm-token]'],
  ['//r/:_authToken = Zx9qT4vK8mW2nR7p', '//r/:_authToken = [REDACTED:npm-token]'],
  ['//r/:_password=Zx9qT4vK8mW2nR7p', '//r/:_password=[REDACTED:npm-token]'],
  // .pgpass lines whose host ends or starts with digits (a numbered host, an IPv4 address).
  ['db01:5432:app:deploy:Zx9qT4vK8m', 'db01:5432:app:deploy:[REDACTED:password-assignment]'],
  ['10.0.0.5:5432:app:deploy:Zx9qT4vK8m', '10.0.0.5:5432:app:deploy:[REDACTED:password-assignment]'],
];

function table(title: string, cases: ReadonlyArray<readonly [string, string]>): void {
  describe(title, () => {
    for (const [text, expected] of cases) {
      it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
        assert.equal(guardText(text, redact).content, expected);
      });
    }
  });
}

table('an AWS secret key near "aws", "amazon" or "secret (access) key", on its line', AWS_CASES);
table('Authorization headers: Bearer and Basic values', HEADER_CASES);
table('the password of a URL', URL_CASES);
table('curl -u, .npmrc and .pgpass lines', COMMAND_CASES);
