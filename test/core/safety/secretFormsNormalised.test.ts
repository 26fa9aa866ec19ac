import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findSecrets, redactSecrets } from '../../../src/core/safety/secretDetector.ts';

const ZWSP = '\u200b';

/** Issue 28.8: credential forms the review stored in clear, each with the secret that must go. */
const CAUGHT: ReadonlyArray<[form: string, text: string, secret: string]> = [
  [
    'npm _authToken holding a UUID',
    '//registry.npmjs.org/:_authToken=3f8a9c2e-1b4d-4e7a-9f0c-5d6e7a8b9c0d',
    '3f8a9c2e-1b4d-4e7a-9f0c-5d6e7a8b9c0d',
  ],
  ['npm _authToken in quotes', '//npm.pkg.github.com/:_authToken="Zx81QmvT4pL0aa77"', 'Zx81QmvT4pL0aa77'],
  ['mysql -p<password>', 'mysql -u root -pS3cr3tPassw0rd -h db.internal', 'S3cr3tPassw0rd'],
  ['mysqldump -p<password>', 'mysqldump --single-transaction -u app -p7hunter2Q app > dump.sql', '7hunter2Q'],
  [
    'a GitHub token split by a zero-width space',
    `token ghp_${ZWSP}A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8`,
    'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  ],
  ['an AWS key split by a word joiner', 'aws key AKIA\u2060IOSFODNN7ABCDEFG', 'IOSFODNN7ABCDEFG'],
  [
    'a full-width GitHub token (NFKC)',
    'ｇｈｐ＿A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
    'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  ],
  ['a URL-encoded connection string password', 'DATABASE_URL is postgres://u:p%40ssW0rd9@h/app', 'p%40ssW0rd9'],
  ['a .pgpass line', 'db.example.com:5432:appdb:appuser:Tr0ub4dor&3xyz', 'Tr0ub4dor&3xyz'],
  ['a .pgpass line with wildcards', '*:*:*:replicator:Kq7vX2mZ9pL4', 'Kq7vX2mZ9pL4'],
];

/** Look-alikes of those forms that hold no secret and must be left exactly as written. */
const LEFT_ALONE: ReadonlyArray<[form: string, text: string]> = [
  ['npm token as a reference', '//registry.npmjs.org/:_authToken=${NPM_TOKEN}'],
  ['mysql -p prompting for the password', 'mysql -u root -p -h db.internal'],
  ['mysql -p at the end of the line', 'run mysql -u root -p'],
  ['a .pgpass line without a password', 'localhost:5432:*:postgres:*'],
  ['clock times', 'The job ran at 10:30:00:12 and ended 11:45:00:01:02'],
  ['an IPv6-looking list', 'fe80:0:0:0:202'],
  ['prose with a zero-width space', `Use the ${ZWSP}retry policy from the design doc`],
  ['a full-width note', 'ＡＰＩ rate limits are 100 per minute'],
  ['a documentation URL', 'postgres://user:password@localhost:5432/db'],
  ['a UUID on its own', 'request id 3f8a9c2e-1b4d-4e7a-9f0c-5d6e7a8b9c0d failed'],
];

describe('secret forms the detector missed, read after normalisation (issue 28.8)', () => {
  for (const [form, text, secret] of CAUGHT) {
    it(`redacts ${form}`, () => {
      const redacted = redactSecrets(text);
      assert.ok(findSecrets(text).length > 0, `${form}: found`);
      assert.ok(!redacted.includes(secret), `${form}: ${redacted}`);
      assert.ok(
        !redacted
          .normalize('NFKC')
          .replace(/[\u200b\u2060]/g, '')
          .includes(secret),
        `${form}: ${redacted}`,
      );
      assert.match(redacted, /\[REDACTED:[a-z-]+\]/);
    });
  }
  for (const [form, text] of LEFT_ALONE) {
    it(`leaves ${form} exactly as written`, () => {
      assert.deepEqual(findSecrets(text), [], form);
      assert.equal(redactSecrets(text), text);
    });
  }
});
