/**
 * Judging the value found after a credential-like name (`password=…`, `API_TOKEN: …`, "the password
 * is …"). The name says "this could be a secret"; the value decides: references to where a secret
 * lives (env vars, templates, code paths), type names and documentation placeholders are not
 * secrets, and in prose only values that look generated or deliberately obscured count.
 */

/** Where a secret comes from, not the secret: `$X`, `${X}`, `$(cmd)`, `%X%`, `{{ x }}`, `${{ secrets.X }}`, `<your key>`, `[REDACTED:…]`. */
const REFERENCE =
  /^(?:\$(?:\{[^}]*\}|\([^)]*\)?|[A-Za-z_][A-Za-z0-9_]*)|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*\}\}|<[^>]*>|\[REDACTED[^\]]*\]|(?:process\.env|os\.environ|import\.meta\.env|ENV|env|secrets|vars|settings|config)\b.*)$/;

/** Documentation stand-ins and type names that sit where a value goes. */
export const PLACEHOLDER_WORDS = new Set([
  'changeme',
  'change_me',
  'change-me',
  'example',
  'dummy',
  'placeholder',
  'redacted',
  'hidden',
  'masked',
  'todo',
  'tbd',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'required',
  'optional',
  'empty',
  'string',
  'str',
  'number',
  'int',
  'integer',
  'boolean',
  'bool',
  'bytes',
  'any',
  'unknown',
  'object',
  'secretstr',
  'password',
  'passwd',
  'secret',
  'token',
  'pass',
  'pwd',
  'apikey',
  'api_key',
  'key',
]);

/** Runs of one masking character (`xxxx`, `****`, `....`, `####`) and "your…" / "my…" stand-ins (`your-api-key`, `<YOUR_TOKEN>`). */
// "yourpassword" needs no entry here: a letters-only value holding a credential word is a stand-in already.
const MASK =
  /^(?:x{3,}|X{3,}|\*{3,}|\.{3,}|#{3,}|•{3,}|…)$|^(?:your|my|some|the)[_-][A-Za-z_-]*$|^(?:your|insert|enter|put)[ _-]/i;

/** `a.b.c`, `self.password`, `match.groups?.secret`, `this.#config.clientSecret`: a path in code, read at run time. */
const CODE_PATH = /^[A-Za-z_$#][\w$]*(?:(?:\?\.|!\.|\.)[A-Za-z_$#][\w$]*)+[!?]?$/;

/** `db_password`, `GITHUB_TOKEN`, `apiKey`, `db-password`: an identifier naming a secret, i.e. a variable or a secret's name. */
const NAMED_IDENTIFIER =
  /^(?:[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)$/;
const SECRET_WORD = /pass|pwd|secret|token|key|auth|cred/i;

const VERSION = /^v?\d+(?:\.\d+)+[\w.-]*$/;
/** A path, a URL or a URN: where or what something is, not a secret (URLs with credentials have their own rule). */
const LOCATION = /^(?:\/|\.{1,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/|urn:[a-z0-9-]+:)/i;
/** `user:password`, `username:pass`: the documentation stand-in for a credential pair. */
const PAIR_PLACEHOLDER = /^[A-Za-z_]+:(?:password|pass|pwd|secret|token)$/i;
/** Only letters, and one of them a credential word: `SuperSecretToken`, `MySecretPassword`, `supersecret`. */
const WORDS_NAMING_A_SECRET = /^[A-Za-z]+$/;
const CREDENTIAL_WORD = /password|passwd|secret|token|apikey/i;
/** `FlowPasswordRequiredResultV2`: capitalised words, three with a credential word or four of any; a constant's name. */
const PASCAL_NAME = /^(?:[A-Z][a-z]+){3,}(?:V\d+)?$/;
const LONG_PASCAL_NAME = /^(?:[A-Z][a-z]+){4,}(?:V\d+)?$/;

/** The quotes around a value are not part of it. */
export function unquote(raw: string): { value: string; quoted: boolean } {
  const first = raw[0];
  const last = raw[raw.length - 1];
  if (
    raw.length >= 2 &&
    ((first === '"' && last === '"') ||
      (first === "'" && last === "'") ||
      (first === '`' && last === '`') ||
      (first === '“' && last === '”'))
  ) {
    return { value: raw.slice(1, -1), quoted: true };
  }
  return { value: raw, quoted: false };
}

/** True when the value is a reference to a secret, a type, or a stand-in rather than a secret. */
export function isNonSecretValue(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '') return true;
  // Already redacted (`"[REDACTED:private-key-block]\\n"`): what is left around the label is no secret.
  const unlabelled = trimmed.replace(/\[REDACTED:[a-z-]+\]/g, '');
  if (unlabelled !== trimmed && unlabelled.replace(/\\[nrt]|\s/g, '').length < 4) return true;
  if (REFERENCE.test(trimmed) || MASK.test(trimmed) || VERSION.test(trimmed)) return true;
  if (PLACEHOLDER_WORDS.has(trimmed.toLowerCase())) return true;
  if (CODE_PATH.test(trimmed) || LOCATION.test(trimmed) || PAIR_PLACEHOLDER.test(trimmed)) return true;
  if ((WORDS_NAMING_A_SECRET.test(trimmed) || PASCAL_NAME.test(trimmed)) && CREDENTIAL_WORD.test(trimmed)) return true;
  if (LONG_PASCAL_NAME.test(trimmed)) return true;
  return NAMED_IDENTIFIER.test(trimmed) && SECRET_WORD.test(trimmed);
}

/**
 * A value that looks generated or deliberately obscured: letters mixed with digits, or a symbol
 * people put in passwords. Plain words ("create", "staging", "read-only") do not, so prose such as
 * "the password: create a new one" or "the secret: staging uses Vault" is left alone.
 */
export function looksObscured(value: string): boolean {
  if (value.length < 6) return false;
  const letters = /[A-Za-z]/.test(value);
  if (!letters) return false;
  return /\d/.test(value) || /[!@#$%^&*+=?~|\\]/.test(value);
}
