/**
 * Whether a setting's name says it holds a credential: `DB_PASSWORD`, `spring.datasource.password`,
 * `SECRET_KEY`, `GITLAB_TOKEN`, `apiKey`, `_authToken`, `AccountKey`. Names that describe a
 * credential without holding one (`password_min_length`, `TOKEN_URL`, `secretName`, `max_tokens`)
 * are not.
 */

export type CredentialNameClass = 'password' | 'secret';

export const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'passphrase', 'passcode', 'pw']);
/** "pass" names a password only as the last word (`DB_PASS`); elsewhere it is a pass of a test or a render pass. */
const LAST_WORD_PASSWORD = 'pass';
export const SECRET_WORDS = new Set([
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'creds',
  'auth',
  'authtoken',
  'accesstoken',
  'secretkey',
  'privatekey',
  'accesskey',
  'accountkey',
  'bearer',
]);
/** "key" holds a credential only next to one of these: `api_key`, `SECRET_KEY`, `private-key`. */
export const KEY_QUALIFIERS = new Set([
  'api',
  'secret',
  'private',
  'access',
  'auth',
  'signing',
  'encryption',
  'master',
  'account',
  'app',
  'client',
  'license',
  'service',
  'shared',
  'sas',
  'subscription',
  'admin',
  'write',
  'deploy',
]);
/** A name ending in one of these describes the credential (its length, where it lives, its type). */
export const DESCRIPTORS = new Set([
  'length',
  'len',
  'min',
  'max',
  'count',
  'size',
  'type',
  'types',
  'hasher',
  'policy',
  'policies',
  'file',
  'files',
  'path',
  'dir',
  'url',
  'uri',
  'endpoint',
  'field',
  'name',
  'names',
  'id',
  'ids',
  'prompt',
  'label',
  'enabled',
  'enable',
  'disabled',
  'required',
  'rotation',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'timeout',
  'header',
  'env',
  'var',
  'regex',
  'pattern',
  'format',
  'mode',
  'strategy',
  'provider',
  'algorithm',
  'algo',
  'version',
  'ref',
  'reference',
  'limit',
  'limits',
  'tokens',
  'location',
  'store',
  'manager',
  'arn',
  'prefix',
  'suffix',
  'hint',
  'reset',
  'changed',
  'used',
  'usage',
  'source',
  'kind',
  'scope',
  'scopes',
  'lifetime',
  'age',
  'at',
  'date',
  'time',
  'placeholder',
  'input',
  'mask',
  'visible',
  'strength',
  'hash',
  'hashed',
  'digest',
  'encoding',
  'options',
  'config',
  'client',
  'handler',
  'callback',
  'factory',
  'params',
  'parameters',
  'request',
  'response',
  'result',
  'state',
  'control',
  'module',
  'status',
  'error',
  'errors',
  'message',
  'validator',
  'validation',
  'model',
  'class',
  'schema',
  'success',
  'failure',
  'failed',
  'start',
  'end',
  'event',
  'events',
]);

/** Splits `dbPassword`, `DB_PASSWORD`, `spring.datasource.password`, `x-api-key` into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Every credential word contains one of these; most names do not, and skip the word split. */
const CANDIDATE = /pass|pwd|pw|secret|token|key|auth|cred|bearer/i;

export function classifyCredentialName(name: string): CredentialNameClass | null {
  if (!CANDIDATE.test(name)) return null;
  const words = nameWords(name);
  if (words.length === 0) return null;
  if (DESCRIPTORS.has(words[words.length - 1]) && words.length > 1) return null;
  if (
    words.some((word) => PASSWORD_WORDS.has(word) || word.endsWith('password')) ||
    words[words.length - 1] === LAST_WORD_PASSWORD
  )
    return 'password';
  // Joined spellings (`clientsecret`, `openaiapikey`) count; "token" inside a longer word (`tiktoken`) does not.
  if (words.some((word) => SECRET_WORDS.has(word) || word.endsWith('secret') || word.endsWith('apikey')))
    return 'secret';
  for (let index = 1; index < words.length; index++) {
    if (words[index] === 'key' && KEY_QUALIFIERS.has(words[index - 1])) return 'secret';
  }
  return null;
}
