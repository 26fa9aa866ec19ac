import type { SecretKind } from '../../../src/core/safety/secretKinds.ts';

/**
 * Credentials as developers paste them: one or more per kind of gitleaks' public rule set that a
 * coding agent is likely to meet, in code, config, shell and prose. Each entry names the secret
 * characters that must be gone after redaction and the label that must replace them. Tokens are
 * generated from a fixed seed and assembled from parts, so this file holds no real credential and
 * does not look like one to a scanner.
 */

export interface CredentialSample {
  kind: SecretKind;
  text: string;
  /** Substrings that must not survive redaction. */
  secrets: string[];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;

let seed = 20261125;
/** Deterministic pseudo-random characters: the corpus is the same on every run. */
export function random(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let index = 0; index < length; index++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out += alphabet[(seed >>> 16) % alphabet.length];
  }
  // Generated tokens mix letters and digits; end each one so that it surely does.
  if (length < 4 || !alphabet.includes('7')) return out;
  const letter = alphabet.includes('q') ? 'q' : alphabet.includes('Q') ? 'Q' : out[out.length - 1];
  return `${out.slice(0, -2)}7${letter}`;
}

const j = (...parts: string[]): string => parts.join('');

function sample(kind: SecretKind, secret: string, text: (secret: string) => string): CredentialSample {
  return { kind, text: text(secret), secrets: [secret] };
}

const pemBody = (lines: number, eol: string): string => Array.from({ length: lines }, () => random(64, B64)).join(eol);
const rsaBody = pemBody(6, '\n');
const pkcs8Body = pemBody(5, '\r\n');
const ecBody = pemBody(3, '\n');
const sshBody = pemBody(7, '\n');
const pgpBody = pemBody(8, '\n');
const jsonKeyBody = pemBody(4, '\\n');
const begin = (label: string): string => j('-----BEGIN ', label, '-----');
const end = (label: string): string => j('-----END ', label, '-----');
const awsSecret = j('wJalrXUtnFEMI/K7MDENG/', random(18, ALNUM));
const jwt = j('eyJ', 'hbGciOiJIUzI1NiJ9', '.eyJ', random(30, URLSAFE), '.', random(43, URLSAFE));

export const CREDENTIAL_CORPUS: readonly CredentialSample[] = [
  // Private keys: the whole block, every armour, LF / CRLF / JSON-escaped line ends, cut-off pastes.
  {
    kind: 'private-key-block',
    text: j('key:\n', begin('RSA PRIVATE KEY'), '\n', rsaBody, '\n', end('RSA PRIVATE KEY'), '\nthanks'),
    secrets: [rsaBody.slice(0, 64), rsaBody.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j(begin('PRIVATE KEY'), '\r\n', pkcs8Body, '\r\n', end('PRIVATE KEY'), '\r\n'),
    secrets: [pkcs8Body.slice(0, 64), pkcs8Body.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j(begin('ENCRYPTED PRIVATE KEY'), '\n', ecBody, '\n', end('ENCRYPTED PRIVATE KEY')),
    secrets: [ecBody.slice(0, 64), ecBody.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j(begin('EC PRIVATE KEY'), '\n', ecBody, '\n', end('EC PRIVATE KEY')),
    secrets: [ecBody.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j('~/.ssh/id_ed25519:\n', begin('OPENSSH PRIVATE KEY'), '\n', sshBody, '\n', end('OPENSSH PRIVATE KEY')),
    secrets: [sshBody.slice(0, 64), sshBody.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j(
      begin('PGP PRIVATE KEY BLOCK'),
      '\nVersion: GnuPG v2\n\n',
      pgpBody,
      '\n=',
      random(4, B64),
      '\n',
      end('PGP PRIVATE KEY BLOCK'),
    ),
    secrets: [pgpBody.slice(0, 64), pgpBody.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j(
      '{"type": "service_account", "private_key": "',
      begin('PRIVATE KEY'),
      '\\n',
      jsonKeyBody,
      '\\n',
      end('PRIVATE KEY'),
      '\\n", "client_email": "x@p.iam.gserviceaccount.com"}',
    ),
    secrets: [jsonKeyBody.slice(0, 64), jsonKeyBody.slice(-64)],
  },
  {
    kind: 'private-key-block',
    text: j('pasted half of it: ', begin('RSA PRIVATE KEY'), '\n', rsaBody.slice(0, 200)),
    secrets: [rsaBody.slice(0, 64), rsaBody.slice(130, 194)],
  },
  {
    kind: 'private-key-block',
    text: j(
      'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n',
      random(64, B64),
      '\nPrivate-Lines: 1\n',
      'PRIVLINE',
      random(56, B64),
      '\nPrivate-MAC: ',
      random(64, HEX),
    ),
    secrets: ['PRIVLINE'],
  },

  // Vendor-prefixed tokens.
  sample('openai-key', j('sk-', 'proj-', random(48, URLSAFE)), (s) => `OPENAI_API_KEY=${s}`),
  sample('openai-key', j('sk-', random(48)), (s) => `client = OpenAI(api_key="${s}")`),
  sample('openai-key', j('sk-', 'svcacct-', random(40, URLSAFE)), (s) => `the service account key is ${s}`),
  sample('anthropic-key', j('sk-', 'ant-', 'api03-', random(93, URLSAFE)), (s) => `export ANTHROPIC_API_KEY=${s}`),
  sample(
    'anthropic-key',
    j('sk-', 'ant-', 'admin01-', random(80, URLSAFE)),
    (s) => `use the admin key ${s} for org settings`,
  ),
  sample('github-token', j('gh', 'p_', random(36)), (s) => `git clone https://${s}@github.com/acme/app.git`),
  sample('github-token', j('gh', 's_', random(36)), (s) => `GITHUB_TOKEN: ${s}`),
  sample('github-token', j('github_', 'pat_', random(22), '_', random(59)), (s) => `token = "${s}"`),
  sample('gitlab-token', j('gl', 'pat-', random(20, URLSAFE)), (s) => `GITLAB_TOKEN=${s}`),
  sample('gitlab-token', j('gl', 'pat-', random(20, URLSAFE)), (s) => `my gitlab token is ${s}, keep it safe`),
  sample('gitlab-token', j('gl', 'rt-', random(20, URLSAFE)), (s) => `gitlab-runner register --token ${s}`),
  sample(
    'aws-access-key',
    j('AKIA', random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
    (s) => `aws_access_key_id = ${s}`,
  ),
  sample('aws-access-key', j('ASIA', random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')), (s) => `temporary creds ${s}`),
  sample('aws-secret-key', awsSecret, (s) => `aws_secret_access_key = ${s}`),
  sample(
    'aws-secret-key',
    j(random(20, B64), 'Ab3/', random(16, B64)),
    (s) => `My AWS secret key is ${s} for the staging account.`,
  ),
  sample(
    'aws-secret-key',
    j(random(18, B64), 'Zz9+', random(18, B64)),
    (s) => `{"AccessKeyId": "AKIA${random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}", "SecretAccessKey": "${s}"}`,
  ),
  sample(
    'azure-storage-key',
    j(random(86, B64), '=='),
    (s) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net`,
  ),
  sample(
    'azure-storage-key',
    j(random(43, B64), '='),
    (s) => `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${s}`,
  ),
  sample(
    'azure-sas-token',
    j(random(43, B64), '%3D'),
    (s) => `https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2026-01-01&sp=r&sig=${s}`,
  ),
  sample(
    'azure-client-secret',
    j(random(3), '8Q~', random(34, `${ALNUM}_~.-`).replace(/[-.~_]$/, 'a')),
    (s) => `AZURE_CLIENT_SECRET=${s}`,
  ),
  sample('google-api-key', j('AIza', 'Sy', random(33, URLSAFE)), (s) => `const firebaseConfig = { apiKey: "${s}" };`),
  sample('google-oauth-secret', j('GOCSPX-', random(28, URLSAFE)), (s) => `client secret ${s}`),
  sample(
    'google-oauth-token',
    j('ya29', '.', random(120, URLSAFE)),
    (s) => `curl -H "Authorization: OAuth ${s}" https://www.googleapis.com/x`,
  ),
  sample(
    'firebase-server-key',
    j('AAAA', random(7, URLSAFE), ':', 'APA91b', random(134, URLSAFE)),
    (s) => `FCM server key: ${s}`,
  ),
  sample('slack-token', j('xo', 'xb-', '2345678901-', '3456789012345-', random(24)), (s) => `SLACK_BOT_TOKEN=${s}`),
  sample(
    'slack-token',
    j('xo', 'xp-', '2345678901-', '3456789012345-', random(32, HEX)),
    (s) => `use ${s} to post as me`,
  ),
  sample(
    'slack-webhook',
    j(
      'https://hooks.slack.com/services/',
      'T0',
      random(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
      '/B0',
      random(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
      '/',
      random(24),
    ),
    (s) => `Alerts go to ${s}`,
  ),
  sample(
    'discord-webhook',
    j('https://discord.com/api/webhooks/', '1234567890123456789/', random(68, URLSAFE)),
    (s) => `DISCORD_WEBHOOK=${s}`,
  ),
  sample('stripe-key', j('sk_', 'live_', random(24)), (s) => `Stripe.api_key = '${s}'`),
  sample('stripe-key', j('rk_', 'test_', random(24)), (s) => `restricted test key ${s}`),
  sample('stripe-key', j('wh', 'sec_', random(32)), (s) => `STRIPE_WEBHOOK_SECRET=${s}`),
  sample('sendgrid-key', j('SG', '.', random(22, URLSAFE), '.', random(43, URLSAFE)), (s) => `sendgrid key: ${s}`),
  sample('twilio-key', j('SK', random(32, HEX)), (s) => `twilio api key ${s}`),
  sample('mailgun-key', j('key-', random(32, HEX)), (s) => `MAILGUN_API_KEY=${s}`),
  sample('mailchimp-key', j(random(32, HEX), '-us', '14'), (s) => `mailchimp: ${s}`),
  sample('huggingface-token', j('hf', '_', random(34)), (s) => `huggingface-cli login --token ${s}`),
  sample('huggingface-token', j('hf', '_', random(34)), (s) => `HF_TOKEN="${s}"`),
  sample('telegram-bot-token', j('123456789', ':AA', random(33, URLSAFE)), (s) => `bot = Bot(token="${s}")`),
  sample('telegram-bot-token', j('7012345678', ':AA', random(33, URLSAFE)), (s) => `the telegram bot token is ${s}`),
  sample(
    'pypi-token',
    j('pypi-', 'AgEIcHlwaS5vcmc', random(70, URLSAFE)),
    (s) => `[pypi]\nusername = __token__\npassword = ${s}`,
  ),
  sample('pypi-token', j('pypi-', 'AgEIcHlwaS5vcmc', random(70, URLSAFE)), (s) => `twine upload -p ${s} dist/*`),
  sample('npm-token', j('npm', '_', random(36)), (s) => `//registry.npmjs.org/:_authToken=${s}`),
  sample('shopify-token', j('shp', 'at_', random(32, HEX)), (s) => `X-Shopify-Access-Token: ${s}`),
  sample('digitalocean-token', j('do', 'p_v1_', random(64, HEX)), (s) => `doctl auth init -t ${s}`),
  sample('databricks-token', j('dapi', random(32, HEX)), (s) => `DATABRICKS_TOKEN=${s}`),
  sample('linear-key', j('lin', '_api_', random(40)), (s) => `linear key ${s}`),
  sample('notion-token', j('ntn', '_', random(46)), (s) => `NOTION_TOKEN=${s}`),
  sample('postman-key', j('PMAK-', random(24, HEX), '-', random(34, HEX)), (s) => `postman api key ${s}`),
  sample('atlassian-token', j('ATATT3', random(180, URLSAFE)), (s) => `jira token ${s}`),
  sample('grafana-token', j('glsa', '_', random(32), '_', random(8, HEX)), (s) => `GRAFANA_SA_TOKEN=${s}`),
  sample('vault-token', j('hvs', '.', random(90, URLSAFE)), (s) => `VAULT_TOKEN=${s} vault kv get secret/app`),
  sample(
    'terraform-token',
    j(
      random(14, 'abcdefghijklmnopqrstuvwxyz0123456789'),
      '.atlasv1.',
      random(67, 'abcdefghijklmnopqrstuvwxyz0123456789'),
    ),
    (s) => `token = "${s}"`,
  ),
  sample(
    'newrelic-key',
    j('NR', 'AK-', random(27, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')),
    (s) => `new relic user key ${s}`,
  ),
  sample('sentry-token', j('sntry', 's_', 'eyJ', random(80, URLSAFE)), (s) => `SENTRY_AUTH_TOKEN=${s}`),
  sample('square-token', j('sq0', 'atp-', random(22, URLSAFE)), (s) => `square access token ${s}`),
  sample('figma-token', j('fig', 'd_', random(40, URLSAFE)), (s) => `FIGMA_TOKEN: ${s}`),
  sample('supabase-token', j('sb', 'p_', random(40, HEX)), (s) => `supabase login --token ${s}`),
  sample('doppler-token', j('dp', '.pt.', random(43)), (s) => `DOPPLER_TOKEN=${s}`),
  sample('dropbox-token', j('sl', '.', random(140, URLSAFE)), (s) => `dropbox access token ${s}`),
  sample('heroku-key', j('HRKU', '-', random(60, URLSAFE)), (s) => `heroku api key ${s}`),
  sample(
    'age-secret-key',
    j('AGE-SECRET-KEY-1', random(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')),
    (s) => `# age key\n${s}`,
  ),
  sample('jwt', jwt, (s) => `session cookie was ${s}`),

  // Credentials recognised by their surroundings.
  sample(
    'bearer-token',
    random(40, URLSAFE),
    (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com/v1/me`,
  ),
  sample('bearer-token', random(24, URLSAFE), (s) => `headers: { Authorization: \`Bearer ${s}\` }`),
  sample('basic-auth', j(random(22, B64), '=='), (s) => `Authorization: Basic ${s}`),
  sample('basic-auth', j('Hunter', random(6)), (s) => `curl -u deploy:${s} https://ci.example.com/api`),
  sample(
    'connection-string-credentials',
    j('Pa55', random(10)),
    (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`,
  ),
  sample(
    'connection-string-credentials',
    j('r3d1s', random(12)),
    (s) => `REDIS_URL=redis://:${s}@cache.internal:6379/0`,
  ),
  sample(
    'connection-string-credentials',
    j('m0ng0', random(8)),
    (s) => `mongodb+srv://admin:${s}@cluster0.abcde.mongodb.net/prod`,
  ),
  sample('connection-string-credentials', j('amqp', random(8)), (s) => `amqp://worker:${s}@rabbit:5672/`),
  sample(
    'connection-string-credentials',
    j('t0k', random(30)),
    (s) => `https://x-access-token:${s}@github.com/acme/app.git`,
  ),

  // Credentials assigned to a credential-like name.
  sample('password-assignment', j('hunter2', random(6)), (s) => `DB_PASSWORD=${s}`),
  sample('password-assignment', 's3cr3t!', (s) => `password: "${s}"`),
  sample('password-assignment', j('Tr0ub4dor', '&3'), (s) => `spring.datasource.password=${s}`),
  sample('password-assignment', j('P@ss', random(6)), (s) => `{"username": "admin", "password": "${s}"}`),
  sample('password-assignment', j('Zq', random(10)), (s) => `mysql --password=${s} -h db`),
  sample(
    'password-assignment',
    j('pw', random(10)),
    (s) => `Server=tcp:db,1433;Database=app;User Id=sa;Password=${s};`,
  ),
  sample(
    'password-assignment',
    j('xml', random(10)),
    (s) => `<server><id>nexus</id><password>${s}</password></server>`,
  ),
  sample('password-assignment', 'correct horse battery staple', (s) => `WIFI_PASSPHRASE="${s}"`),
  sample('password-assignment', 'swordfish', (s) => `password: ${s}`),
  sample('password-assignment', j('yaml', random(8)), (s) => `postgres:\n  user: app\n  password: ${s}\n  host: db`),
  sample(
    'secret-assignment',
    j('django-insecure-', random(40, `${ALNUM}!@#%^&*(-_=+)`).replace(/[()]/g, 'x')),
    (s) => `SECRET_KEY = '${s}'`,
  ),
  sample('secret-assignment', random(32, HEX), (s) => `SECRET_KEY=${s}`),
  sample('secret-assignment', random(40), (s) => `CLOUDFLARE_API_TOKEN="${s}"`),
  sample('secret-assignment', random(32, HEX), (s) => `export DD_API_KEY=${s}`),
  sample('secret-assignment', random(36), (s) => `const apiKey = '${s}';`),
  sample('secret-assignment', random(28), (s) => `X-API-Key: ${s}`),
  sample('secret-assignment', random(32, HEX), (s) => `client_secret = '${s}'`),
  sample('secret-assignment', j(random(20, B64), '='), (s) => `{"auths": {"registry.example.com": {"auth": "${s}"}}}`),
  sample('secret-assignment', random(48), (s) => `SESSION_SECRET: ${s}`),

  // Whole files and snippets as they are pasted, several secrets at once.
  (() => {
    const id = j('AKIA', random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'));
    const secret = j(random(19, B64), 'Qx7/', random(17, B64));
    return {
      kind: 'aws-secret-key',
      text: `~/.aws/credentials\n[default]\naws_access_key_id = ${id}\naws_secret_access_key = ${secret}\nregion = eu-west-1`,
      secrets: [id, secret],
    } satisfies CredentialSample;
  })(),
  (() => {
    const db = j('pg', random(14));
    const stripe = j('sk_', 'live_', random(24));
    const jwtSecret = random(40, HEX);
    return {
      kind: 'password-assignment',
      text: `# .env\nDB_HOST=db\nDB_PASSWORD=${db}\nSTRIPE_SECRET_KEY=${stripe}\nJWT_SECRET=${jwtSecret}\nLOG_LEVEL=debug`,
      secrets: [db, stripe, jwtSecret],
    } satisfies CredentialSample;
  })(),
  (() => {
    const password = j('Kube', random(12));
    const token = random(40);
    return {
      kind: 'password-assignment',
      text: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  DB_PASSWORD: "${password}"\n  API_TOKEN: "${token}"`,
      secrets: [password, token],
    } satisfies CredentialSample;
  })(),
  (() => {
    const password = j('Compose', random(10));
    return {
      kind: 'password-assignment',
      text: `services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_PASSWORD=${password}\n      - POSTGRES_USER=app`,
      secrets: [password],
    } satisfies CredentialSample;
  })(),
  sample(
    'connection-string-credentials',
    j('Az', random(14)),
    (s) =>
      `{"ConnectionStrings": {"Default": "postgresql://app:${s}@acme.postgres.database.azure.com/app?sslmode=require"}}`,
  ),
  sample(
    'password-assignment',
    j('Jdbc', random(10)),
    (s) => `spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    username: app\n    password: ${s}`,
  ),
  sample('secret-assignment', random(32, HEX), (s) => `$config['encryption_key'] = '${s}';`),
  sample('secret-assignment', random(40), (s) => `const API_KEY: &str = "${s}";`),
  sample('secret-assignment', random(40), (s) => `apiKey := "${s}"`),
  sample('secret-assignment', random(40), (s) => `env:\n  SONAR_TOKEN: ${s}\n  NODE_ENV: test`),
  sample('secret-assignment', j(random(20, B64), 'Ab1='), (s) => `variable "db_password" {}\nclient_secret = "${s}"`),
  sample(
    'npm-token',
    j('npm', '_', random(36)),
    (s) => `# .npmrc\n//registry.npmjs.org/:_authToken=${s}\nalways-auth=true`,
  ),
  sample(
    'password-assignment',
    j('Pypi', random(10)),
    (s) =>
      `[distutils]\nindex-servers = private\n[private]\nrepository = https://pypi.example.com\nusername = ci\npassword = ${s}`,
  ),
  sample('jwt', jwt, (s) => `Cookie: session=${s}; theme=dark`),
  sample(
    'slack-webhook',
    j(
      'https://hooks.slack.com/services/',
      'T0',
      random(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
      '/B0',
      random(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
      '/',
      random(24),
    ),
    (s) => `{"channel": "#alerts", "webhook_url": "${s}"}`,
  ),
  sample(
    'github-token',
    j('gh', 'p_', random(36)),
    (s) => `echo ${s} | docker login ghcr.io -u octocat --password-stdin`,
  ),
  sample(
    'openai-key',
    j('sk-', 'proj-', random(60, URLSAFE)),
    (s) => `I set the key to ${s} in my shell and it still says 401`,
  ),
  sample('password-in-prose', j('Winter', '2024!'), (s) => `FYI the VPN password was changed to ${s} yesterday`),
  sample(
    'private-key-block',
    j(begin('OPENSSH PRIVATE KEY'), ' ', random(70, B64), ' ', random(70, B64), ' ', end('OPENSSH PRIVATE KEY')),
    (s) => `SSH_PRIVATE_KEY="${s}"`,
  ),

  // Passwords said in prose.
  sample('password-in-prose', j('Tr0ub4dor', '&3'), (s) => `The staging DB password is ${s} until Friday.`),
  sample('password-in-prose', 'hunter2', (s) => `my password is ${s}`),
  sample('password-in-prose', 'correct horse battery staple', (s) => `the wifi passphrase is "${s}"`),
  sample('password-in-prose', j('Blue', 'Sky-42'), (s) => `the password for the admin console is ${s}.`),
  sample('password-in-prose', j('machine', '7Kq2'), (s) => `machine api.example.com login bot password ${s}`),
];
