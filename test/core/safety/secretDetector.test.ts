import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  containsSecret,
  findSecrets,
  redactSecrets,
  type SecretKind,
} from '../../../src/core/safety/secretDetector.ts';

// Fixtures are assembled from parts so this file never itself looks like it holds a credential.
const j = (...parts: string[]): string => parts.join('');

const POSITIVES: Array<[SecretKind, string]> = [
  ['openai-key', j('const key = "sk-', 'proj-', 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV"')],
  ['openai-key', j('OPENAI=sk-', 'abcdefghijklmnopqrstuvwxyz0123')],
  ['github-token', j('token: gh', 'p_', 'A'.repeat(36))],
  ['github-token', j('gh', 'o_', 'b'.repeat(36))],
  ['github-token', j('github_', 'pat_', '11ABCDEFG0', 'x'.repeat(60))],
  ['aws-access-key', j('aws_access_key_id = AKIA', 'IOSFODNN7EXAMPLE')],
  ['slack-token', j('xox', 'b-1234567890-abcdefghij')],
  ['google-api-key', j('AIza', 'SyA', '1'.repeat(32))],
  ['stripe-key', j('sk_', 'live_', '4eC39HqLyjWDarjtT1zdp7dc')],
  [
    'jwt',
    j(
      'Authorization: Bearer eyJ',
      'hbGciOiJIUzI1NiJ9',
      '.eyJ',
      'zdWIiOiIxMjM0NTY3ODkwIn0',
      '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ),
  ],
  ['private-key-block', j('-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEow...')],
  ['private-key-block', j('-----BEGIN ', 'OPENSSH PRIVATE KEY-----')],
  ['password-assignment', 'DB_PASSWORD=hunter2hunter2'],
  ['password-assignment', 'password: "s3cr3t!"'],
  ['secret-assignment', "client_secret = 'abcd1234efgh'"],
  ['connection-string-credentials', j('postgres://admin:', 'Pa55word', '@db.example.com:5432/app')],
  ['connection-string-credentials', j('mongodb+srv://user:', 'pw12345', '@cluster0.mongodb.net')],
];

for (const [kind, text] of POSITIVES) {
  test(`detects ${kind} in ${JSON.stringify(text.slice(0, 24))}…`, () => {
    const kinds = findSecrets(text).map((finding) => finding.kind);
    assert.ok(kinds.includes(kind), `expected ${kind}, got ${JSON.stringify(kinds)}`);
  });
}

const NEGATIVES = [
  'const password = getPassword();',
  'password = process.env.DB_PASSWORD',
  'password: ${DB_PASSWORD}',
  'https://github.com/a/b',
  'postgres://localhost:5432/app',
  'function skip() { return task-list; }',
  'Error TS2322: Type string is not assignable to type number at src/a.ts:10',
  'git checkout -b feature/sk-123',
  'API_KEY=<your key here>',
];

for (const text of NEGATIVES) {
  test(`ignores ordinary text ${JSON.stringify(text)}`, () => {
    assert.deepEqual(findSecrets(text), []);
    assert.equal(containsSecret(text), false);
  });
}

test('overlapping findings are one redaction covering all of them, labelled by the first', () => {
  // The connection-string password and the JWT overlap; no character of either may survive.
  const token = j(
    'eyJ',
    'hbGciOiJIUzI1NiJ9',
    '.eyJ',
    'zdWIiOiIxMjM0NTY3ODkwIn0',
    '.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  );
  assert.equal(
    redactSecrets(`https://bot:${token}@hooks.example.com/x`),
    'https://bot:[REDACTED:jwt]@hooks.example.com/x',
  );
  assert.equal(
    redactSecrets(j('A=AKIA', 'IOSFODNN7EXAMPLE ', 'AKIA', 'IOSFODNN7EXAMPLF')),
    'A=[REDACTED:aws-access-key] [REDACTED:aws-access-key]',
  );
});

test('an Anthropic key is labelled anthropic-key, not openai-key', () => {
  const key = j('sk-', 'ant-', 'api03-', 'a'.repeat(40), 'B7');
  assert.deepEqual(
    findSecrets(`ANTHROPIC_API_KEY=${key}`).map((finding) => finding.kind),
    ['anthropic-key', 'secret-assignment'],
  );
  assert.equal(redactSecrets(`ANTHROPIC_API_KEY=${key}`), 'ANTHROPIC_API_KEY=[REDACTED:anthropic-key]');
});

test('redactSecrets keeps the surrounding text and names the kind', () => {
  const text = j('connect with sk-', 'abcdefghijklmnopqrstuvwxyz0123 then AKIA', 'IOSFODNN7EXAMPLE done');
  assert.equal(redactSecrets(text), 'connect with [REDACTED:openai-key] then [REDACTED:aws-access-key] done');
});

test('findings report positions, never the secret value', () => {
  const text = j('x AKIA', 'IOSFODNN7EXAMPLE');
  const [finding] = findSecrets(text);
  assert.deepEqual(Object.keys(finding).sort(), ['index', 'kind', 'length']);
  assert.equal(text.slice(finding.index, finding.index + finding.length), j('AKIA', 'IOSFODNN7EXAMPLE'));
});
