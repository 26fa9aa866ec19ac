import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyCredentialName, nameWords } from '../../../src/core/safety/credentialName.ts';
import { redactSecrets } from '../../../src/core/safety/secretDetector.ts';
import { isNonSecretValue, looksObscured } from '../../../src/core/safety/secretValue.ts';

// What is replaced, with what label, and what is left: the setting's name, quotes and the rest of the line stay.
const EXACT: Array<[string, string]> = [
  ['DB_PASSWORD=hunter2hunter2 locally', 'DB_PASSWORD=[REDACTED:password-assignment] locally'],
  ['password: "s3cr3t!"', 'password: "[REDACTED:password-assignment]"'],
  ["'password' => 'Tr0ub4dor&3',", "'password' => '[REDACTED:password-assignment]',"],
  ['password := "gopher42"', 'password := "[REDACTED:password-assignment]"'],
  ['mysql --password=Zq9xk2mLp -h db', 'mysql --password=[REDACTED:password-assignment] -h db'],
  ['User Id=sa;Password=Pw9xk2mLp;Database=app', 'User Id=sa;Password=[REDACTED:password-assignment];Database=app'],
  [
    'https://db.example.com/login?user=ci&password=Pw9xk2mLp&next=/',
    'https://db.example.com/login?user=ci&password=[REDACTED:password-assignment]&next=/',
  ],
  ['<password>xml9Secret</password>', '<password>[REDACTED:password-assignment]</password>'],
  ['postgres:\n  password: swordfish\n  host: db', 'postgres:\n  password: [REDACTED:password-assignment]\n  host: db'],
  ["SECRET_KEY = 'django-insecure-7x!k2m'", "SECRET_KEY = '[REDACTED:secret-assignment]'"],
  ['GITLAB_TOKEN="a1b2c3d4e5f6g7h8"', 'GITLAB_TOKEN="[REDACTED:secret-assignment]"'],
  ['x-api-key: Zk29dkQmA0pLq7Xw', 'x-api-key: [REDACTED:secret-assignment]'],
  ['"auth": "ZGVwbG95OmEyYjNjNGQ1"', '"auth": "[REDACTED:secret-assignment]"'],
  ['the staging password is Tr0ub4dor&3.', 'the staging password is [REDACTED:password-in-prose].'],
  [
    'the password for the admin console is BlueSky-42!',
    'the password for the admin console is [REDACTED:password-in-prose]!',
  ],
  ['my passphrase is "correct horse battery staple"', 'my passphrase is "[REDACTED:password-in-prose]"'],
  [
    'DATABASE_URL=postgres://app:Pa55word9@db.internal:5432/app',
    'DATABASE_URL=postgres://app:[REDACTED:connection-string-credentials]@db.internal:5432/app',
  ],
  ['redis://:r3d1sPass@cache:6379', 'redis://:[REDACTED:connection-string-credentials]@cache:6379'],
  [
    'curl -H "Authorization: Bearer abc123def456ghi789jkl" https://x',
    'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://x',
  ],
  ['Authorization: Basic ZGVwbG95OnMzY3IzdA==', 'Authorization: Basic [REDACTED:basic-auth]'],
  ['curl -u deploy:Hunter2x https://ci', 'curl -u deploy:[REDACTED:basic-auth] https://ci'],
];

for (const [input, expected] of EXACT) {
  test(`redacts only the value: ${JSON.stringify(input.slice(0, 40))}`, () => {
    assert.equal(redactSecrets(input), expected);
  });
}

// The same names with values that are references, types, stand-ins or words of a sentence.
const UNTOUCHED = [
  'password = getPassword()',
  'password = user_password',
  'password = self.password',
  'password: string;',
  'token: ${{ secrets.NPM_TOKEN }}',
  'api_key: <your key>',
  'password: abc12', // shorter than six characters bare: too short to tell from a label
  'secret: staging', // a plain word after "secret:" is a label, not a generated secret
  'token = abcdefgh', // a plain word is not a generated token
  'password: create the new secret in Vault',
  'password_min_length: 12',
  'arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf',
  'the password is stored in Vault',
  'the password for staging is in the vault',
  'postgres://user:password@localhost/app',
  'Basic authentication is disabled',
  'Bearer tokens are required',
];

for (const text of UNTOUCHED) {
  test(`leaves ${JSON.stringify(text)} untouched`, () => {
    assert.equal(redactSecrets(text), text);
  });
}

test('credential names: what holds a credential and what only describes one', () => {
  assert.deepEqual(nameWords('spring.datasource.dbPassword'), ['spring', 'datasource', 'db', 'password']);
  assert.deepEqual(nameWords('AWSSecretKey'), ['aws', 'secret', 'key']);
  assert.equal(classifyCredentialName('DB_PASSWORD'), 'password');
  assert.equal(classifyCredentialName('passwd'), 'password');
  assert.equal(classifyCredentialName('SECRET_KEY'), 'secret');
  assert.equal(classifyCredentialName('_authToken'), 'secret');
  assert.equal(classifyCredentialName('OPENAI_API_KEY'), 'secret');
  assert.equal(classifyCredentialName('AccountKey'), 'secret');
  assert.equal(classifyCredentialName('signing_key'), 'secret');
  assert.equal(classifyCredentialName('primary_key'), null);
  assert.equal(classifyCredentialName('cache_key'), null);
  assert.equal(classifyCredentialName('secretName'), null);
  assert.equal(classifyCredentialName('TOKEN_URL'), null);
  assert.equal(classifyCredentialName('max_tokens'), null);
  assert.equal(classifyCredentialName('password_min_length'), null);
  assert.equal(classifyCredentialName('bypass'), null);
});

test('credential values: references and stand-ins are not secrets; obscured means letters with digits or symbols', () => {
  for (const value of [
    '$DB_PASSWORD',
    '${DB_PASSWORD}',
    '$(vault read x)',
    '%PASSWORD%',
    '{{ .Values.password }}',
    '<password>',
    '[REDACTED:jwt]',
    'process.env.TOKEN',
    'xxxx',
    '****',
    'your-api-key',
    'changeme',
    'string',
    'self.password',
    'dbPassword',
    'GITHUB_TOKEN',
    '1.2.3',
    'SuperSecretToken',
    'yourpassword',
    'my_api_key',
    'FlowPasswordRequiredResultV2',
    'user:password',
    '/run/secrets/db',
    'https://example.com/x',
    '',
  ]) {
    assert.equal(isNonSecretValue(value), true, value);
  }
  for (const value of ['hunter2', 'Tr0ub4dor&3', 'SuperSecret1', 'swordfish', 'Zq9xk2mLp', 'theodore', 'mydog2'])
    assert.equal(isNonSecretValue(value), false, value);
  assert.equal(looksObscured('hunter2'), true);
  assert.equal(looksObscured('P@ssword'), true);
  assert.equal(looksObscured('create'), false);
  assert.equal(looksObscured('read-only'), false);
  assert.equal(looksObscured('123456789'), false);
  assert.equal(looksObscured('ab1'), false);
});
