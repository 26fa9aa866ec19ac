import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { guardJson, guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * The forms of "a credential-like name and a value that is not a reference" (docs/lifecycle.md
 * "Secret detection") the corpus has few samples of: a typed declaration with a quoted literal in
 * each language's spelling and spacing, the code operands left alone (a type, a union of literals,
 * a number constant, a generic or array type) next to values that only start or end like one, a
 * metadata field named like a credential (its value is a quoted string, so the lengths of a quoted
 * setting apply: a password from 4 characters, a secret from 8 without spaces), and the punctuation
 * after a password said in prose.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const SECRET = '[REDACTED:secret-assignment]';
const PASSWORD = '[REDACTED:password-assignment]';
const PROSE = '[REDACTED:password-in-prose]';

const DECLARATIONS: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['const API_KEY: &str = "Zx9qT4vK8mW2nR7p";', `const API_KEY: &str = "${SECRET}";`],
  ['static TOKEN: &\'static str = "Zx9qT4vK8mW2nR7p";', `static TOKEN: &'static str = "${SECRET}";`],
  ['val apiToken: String = "Zx9qT4vK8mW2nR7p"', `val apiToken: String = "${SECRET}"`],
  ['const API_KEY: &\'a str = "Zx9qT4vK8mW2nR7p";', `const API_KEY: &'a str = "${SECRET}";`],
  ['API_KEY: &\'static  str = "Zx9qT4vK8mW2nR7p"', `API_KEY: &'static  str = "${SECRET}"`],
  ['API_KEY: str = "Zx9qT4vK8mW2nR7p"', `API_KEY: str = "${SECRET}"`],
  ["const apiKey: string = 'Zx9qT4vK8mW2nR7p';", `const apiKey: string = '${SECRET}';`],
  ['API_KEY:str="Zx9qT4vK8mW2nR7p"', `API_KEY:str="${SECRET}"`],
  ['API_KEY  :  str  =  "Zx9qT4vK8mW2nR7p"', `API_KEY  :  str  =  "${SECRET}"`],
  ['dbPassword: Option<String> = "hunter2x"', `dbPassword: Option<String> = "${PASSWORD}"`],
  ['password: string = "hunter2x"', `password: string = "${PASSWORD}"`],
];

const CODE_OPERANDS: ReadonlyArray<readonly [text: string, expected: string]> = [
  ["type AuthResult = 'AUTHORIZED' | 'REDIRECT';", "type AuthResult = 'AUTHORIZED' | 'REDIRECT';"],
  ["type Token = 'Zx9qT4vK8mW2nR7p'|'other';", "type Token = 'Zx9qT4vK8mW2nR7p'|'other';"],
  ["type Token = 'Zx9qT4vK8mW2nR7p' | 'other';", "type Token = 'Zx9qT4vK8mW2nR7p' | 'other';"],
  ['password = 12345678;', 'password = 12345678;'],
  ['password = 1234.5678;', 'password = 1234.5678;'],
  ['token: CancellationToken;', 'token: CancellationToken;'],
  ['const PASS_DEPTH = 0x0B95;', 'const PASS_DEPTH = 0x0B95;'],
  ['secret_key = 1234567890123;', 'secret_key = 1234567890123;'],
  ['secret_key = 1234.5678;', 'secret_key = 1234.5678;'],
  ['f(token: Token, other)', 'f(token: Token, other)'],
  ['apiKey: Array<Key>', 'apiKey: Array<Key>'],
  ['authToken: Token | undefined', 'authToken: Token | undefined'],
  ['const tokens: Secret[] = []', 'const tokens: Secret[] = []'],
  ['password: Credentials | null', 'password: Credentials | null'],
  // A call or an index reads the secret at run time.
  ['password = readFromVault()', 'password = readFromVault()'],
  ['password = credentials["db"]', 'password = credentials["db"]'],
  ["password = lookup ('db')", "password = lookup ('db')"],
  ['password = lookup (name)', 'password = lookup (name)'],
  ['password = lookup (name, 2)', 'password = lookup (name, 2)'],
  ['password = getPassword ()', 'password = getPassword ()'],
  // A note in parentheses after the value is not an argument list: the value is still a secret.
  ['password=Zx9qT4vK8mW2 (rotated monthly)', `password=${PASSWORD} (rotated monthly)`],
  ['DB_PASSWORD=hunter2hunter2 (staging only)', `DB_PASSWORD=${PASSWORD} (staging only)`],
  ['api_token = Zx9qT4vK8mW2nR7p (expires in May)', `api_token = ${SECRET} (expires in May)`],
  // A spaced `=` and a statement end: a variable, as in code; unspaced it is a connection string's value.
  ['api_token = Zx9qT4vK8m; return', 'api_token = Zx9qT4vK8m; return'],
  ['api_token = Zx9qT4vK8m;', 'api_token = Zx9qT4vK8m;'],
  ['api_token=Zx9qT4vK8m;', `api_token=${SECRET};`],
  // Values that only start or end like an identifier, or a comma, bar or semicolon further on: a secret all the same.
  ['api_token = Zx9qT4vK8m # old; see vault', `api_token = ${SECRET} # old; see vault`],
  ['api_token = Zx9qT4vK8m # old (see vault)', `api_token = ${SECRET} # old (see vault)`],
  ['{ user: admin, password: Tr0ub4dor&3, host: db }', `{ user: admin, password: ${PASSWORD}, host: db }`],
  ['{ user: admin, password: p@ssw0rd1, host: db }', `{ user: admin, password: ${PASSWORD}, host: db }`],
  ['DB_PASSWORD=Zx9qT4vK8mW2 # staging, not prod', `DB_PASSWORD=${PASSWORD} # staging, not prod`],
  ['Server=db;Password=Zx9qT4vK8mW2;', `Server=db;Password=${PASSWORD};`],
  ['password = "Zx9qT4vK8mW2" # staging | prod', `password = "${PASSWORD}" # staging | prod`],
];

const FIELDS: ReadonlyArray<readonly [field: Record<string, unknown>, expected: Record<string, unknown>]> = [
  [{ db_password: 'pw12' }, { db_password: PASSWORD }],
  [{ db_password: 'pw1' }, { db_password: 'pw1' }],
  [{ api_token: 'abcdefghij' }, { api_token: SECRET }],
  [{ api_token: 'abcdefg' }, { api_token: 'abcdefg' }],
  [{ api_token: 'abcd efghij' }, { api_token: 'abcd efghij' }],
  [{ api_token: '${API_TOKEN}' }, { api_token: '${API_TOKEN}' }],
  [{ password: 'changeme' }, { password: 'changeme' }],
  [{ note: 'abcdefghij' }, { note: 'abcdefghij' }],
  [{ nested: { client_secret: 'abcdefghij' } }, { nested: { client_secret: SECRET } }],
  [{ list: [{ auth: 'Zx9qT4vK' }] }, { list: [{ auth: SECRET }] }],
];

const PROSE_CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  ['the password is hunter2x.', `the password is ${PROSE}.`],
  ['the password is hunter2x!?', `the password is ${PROSE}!?`],
  ['(the password is hunter2x)', `(the password is ${PROSE})`],
  ['the password is hunter2x, then hunter3x.', `the password is ${PROSE}, then hunter3x.`],
  ['the password was changed to Zx9qT4vK', `the password was changed to ${PROSE}`],
  ["the password is 'hunter2x.'", `the password is '${PROSE}'`],
  // The closing mark of Markdown inline code or of a curly quotation is not part of the password.
  ['`the password is hunter2x`', `\`the password is ${PROSE}\``],
  ['“the password is hunter2x”', `“the password is ${PROSE}”`],
  ['the password is ab`c12x3', `the password is ${PROSE}`],
  ['the password is `hunter2x and more', `the password is ${PROSE} and more`],
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

table('a typed declaration with a quoted literal', DECLARATIONS);
table('code operands are left alone; values that only look like one are not', CODE_OPERANDS);
table('a password said in prose, and the punctuation after it', PROSE_CASES);

describe('a metadata field named like a credential', () => {
  for (const [field, expected] of FIELDS) {
    it(`${JSON.stringify(field)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(guardJson(field, redact).value, expected);
    });
  }
  it('is refused, naming the field, under the refuse policy', () => {
    assert.throws(
      () => guardJson({ db_password: 'pw12' }, { secretPolicy: 'refuse', piiRedaction: false }),
      (error: unknown) =>
        MemoryError.is(error, 'INVALID_INPUT') &&
        JSON.stringify(error.details) ===
          JSON.stringify({ field: 'metadata.db_password', secret_kinds: ['password-assignment'] }),
    );
  });
});
