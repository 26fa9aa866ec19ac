import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * The credentials found by their surroundings that the corpus had no sample of (a mutation run
 * found their rules reached by no test): a MySQL password glued to `-p`, a .pgpass line, `curl -u`
 * and an .npmrc auth line. Each rule is tested on what it must take (only the password part) and
 * on the look-alikes it must leave as written: a bare `-p` that prompts, a reference, a stand-in,
 * a clock time, an IPv6 address, a `*` password.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const P = '[REDACTED:password-assignment]';

const CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['mysql -u root -pS3cretPass! mydb', `mysql -u root -p${P} mydb`],
  ["mysqldump -p'Tr0ub4dor&3' shop", `mysqldump -p${P} shop`],
  ['mariadb -h db -p"Zx9 qT4vK8" app', `mariadb -h db -p${P} app`],
  ['mysqladmin -uroot -pZx9qT4vK8mW2 status', `mysqladmin -uroot -p${P} status`],
  ['mysql -u root -p mydb', 'mysql -u root -p mydb'],
  ['mysql -p$MYSQL_PWD app', 'mysql -p$MYSQL_PWD app'],
  ['mysql -u root -pchangeme app', 'mysql -u root -pchangeme app'],
  ["mysql -u root -p'changeme' app", "mysql -u root -p'changeme' app"],
  ['mysql --host=db-primary app', 'mysql --host=db-primary app'],
  ['db.example.com:5432:app:deploy:Zx9qT4vK8m', `db.example.com:5432:app:deploy:${P}`],
  ['*:*:*:deploy:Zx9qT4vK8m', `*:*:*:deploy:${P}`],
  ['  localhost:*:app:deploy:Zx9qT4vK8m  ', `  localhost:*:app:deploy:${P}  `],
  ['hosts\ndb.internal:5432:app:deploy:Zx9qT4vK8m\nend', `hosts\ndb.internal:5432:app:deploy:${P}\nend`],
  ['at 10:30:00:12:45 it broke', 'at 10:30:00:12:45 it broke'],
  ['see db:5432:app:deploy:Zx9qT4vK8m', 'see db:5432:app:deploy:Zx9qT4vK8m'],
  ['fe80:0:0:0:202:b3ff', 'fe80:0:0:0:202:b3ff'],
  ['db:5432:app:deploy:*', 'db:5432:app:deploy:*'],
  ['db:5432:app:deploy:changeme', 'db:5432:app:deploy:changeme'],
  ['10:5432:app:deploy:Zx9qT4vK8m', '10:5432:app:deploy:Zx9qT4vK8m'],
  [
    'curl -u deploy:Zx9qT4vK8mW2 https://api.example.com',
    'curl -u deploy:[REDACTED:basic-auth] https://api.example.com',
  ],
  ["curl -u 'deploy:Zx9qT4vK8mW2' https://x", "curl -u 'deploy:[REDACTED:basic-auth]' https://x"],
  ['curl --user deploy:$API_TOKEN https://x', 'curl --user deploy:$API_TOKEN https://x'],
  ['//registry.npmjs.org/:_authToken=Zx9qT4vK8mW2nR7p', '//registry.npmjs.org/:_authToken=[REDACTED:npm-token]'],
  ['//registry.npmjs.org/:_authToken=${NPM_TOKEN}', '//registry.npmjs.org/:_authToken=${NPM_TOKEN}'],
];

describe('credentials found by their surroundings: mysql -p, .pgpass, curl -u, .npmrc', () => {
  for (const [text, expected] of CASES) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(guardText(text, redact).content, expected);
    });
  }
});
