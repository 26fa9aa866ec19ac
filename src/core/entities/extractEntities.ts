/**
 * Finds entities in free text so memories can be recalled by exact entity (seed 000 §6.2 `entities`).
 * Output is `kind:name`, lower-cased kind, deduplicated, in order of first appearance.
 */
import { regexMatches } from '../util/regexMatches.ts';

const CODE_EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|json|py|rb|go|rs|java|kt|kts|scala|c|h|cc|cpp|hpp|cs|fs|swift|m|php|sql|sh|bash|zsh|ps1|yml|yaml|toml|ini|cfg|conf|md|mdx|txt|html|css|scss|less|vue|svelte|xml|gradle|lock|env|proto|graphql|tf|dockerfile';

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
const KIND_NAME_PATTERN = /(?<![\w/:])([a-z][a-z_-]{1,24}):([A-Za-z0-9_@][A-Za-z0-9_./@#-]*[A-Za-z0-9_])/g;
const PATH_PATTERN = new RegExp(
  String.raw`(?<![\w/.:@-])((?:~|\.{1,2})?/?(?:[\w@.-]+/)*[\w@-][\w.@-]*\.(?:${CODE_EXTENSIONS}))(?![\w/])`,
  'gi',
);
const DIR_PATTERN = /(?<![\w/.:@-])((?:\.{1,2}\/|\/)?(?:[\w@-]+\/){1,}[\w@-]+\/?)(?![\w/@-]|\.\w)/g;
const BACKTICK_PATTERN = /`([^`\n]{1,120})`/g;
const CALL_PATTERN = /\b([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)/g;
const IDENTIFIER_PATTERN =
  /\b((?:[a-z]+[A-Z][A-Za-z0-9]*)|(?:[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)|(?:[a-z0-9]+_[a-z0-9_]+))\b/g;
const PACKAGE_COMMAND_PATTERN =
  /\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add)\s+(?:-[-\w]+\s+)*((?:@[\w.-]+\/)?[\w.-]+)|\b(?:pip3?|uv pip|poetry)\s+(?:install|add)\s+(?:-[-\w]+\s+)*([\w.-]+)|\bcargo\s+add\s+([\w-]+)|\bgo\s+get\s+([\w./-]+)/g;
const IMPORT_PATTERN = /\b(?:from|require\(|import\()\s*['"]((?:@[\w.-]+\/)?[\w.-]+)(?:\/[\w./-]*)?['"]/g;
const SCOPED_PACKAGE_PATTERN = /(?<![\w/])(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*)/g;

const LINE_REFERENCE = /^\d+(?:[-:]\d+)*$/;

/** Kinds that look like `kind:name` but are not entities. */
const IGNORED_KINDS = new Set([
  'http',
  'https',
  'file',
  'mailto',
  'data',
  'javascript',
  'vscode',
  'localhost',
  'note',
  'todo',
  'e.g',
  'i.e',
]);

export function extractEntities(text: string): string[] {
  const found = new Map<string, true>();
  const add = (kind: string, name: string): void => {
    const cleaned = name.trim().replace(/[.,;:!?]+$/, '');
    if (cleaned.length > 0 && cleaned.length <= 200) found.set(`${kind}:${cleaned}`, true);
  };
  const withoutUrls = !text.includes('://')
    ? text
    : text.replace(URL_PATTERN, (url) => {
        add('url', url.replace(/[.,;:!?]+$/, ''));
        return ' ';
      });
  // Each pattern below but two needs one character (or pair) to match at all; most texts lack most of
  // them, and a scan that cannot match still tries every position (a store runs these on every text).
  const matches = (needs: string, pattern: RegExp): RegExpExecArray[] =>
    withoutUrls.includes(needs) ? regexMatches(pattern, withoutUrls) : [];

  for (const [, kind, name] of matches(':', KIND_NAME_PATTERN)) {
    // `notes.ts:2-2`, `app.py:14:3`: a file's line and column, not a `kind:name` entity (the path is found below).
    if (!IGNORED_KINDS.has(kind) && !LINE_REFERENCE.test(name)) add(kind, name);
  }
  for (const [, path] of matches('.', PATH_PATTERN)) add('file', path);
  for (const [, dir] of matches('/', DIR_PATTERN)) {
    if (/[a-z]/i.test(dir) && !dir.includes('@') && dir.split('/').filter(Boolean).length >= 2) add('path', dir);
  }
  for (const [, a, b, c, d] of regexMatches(PACKAGE_COMMAND_PATTERN, withoutUrls))
    add('package', (a ?? b ?? c ?? d) as string);
  const quoted = withoutUrls.includes("'") || withoutUrls.includes('"');
  for (const [, pkg] of quoted ? regexMatches(IMPORT_PATTERN, withoutUrls) : []) {
    if (!pkg.startsWith('.')) add('package', pkg);
  }
  for (const [, pkg] of matches('@', SCOPED_PACKAGE_PATTERN)) add('package', pkg);
  for (const [, inner] of matches('`', BACKTICK_PATTERN)) {
    const symbol = inner.replace(/\(.*\)$/, '');
    if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(symbol) && !found.has(`file:${inner}`)) add('symbol', symbol);
  }
  for (const [, call] of matches('()', CALL_PATTERN)) add('symbol', call);
  const named = new Set([...found.keys()].map((entity) => entity.slice(entity.indexOf(':') + 1)));
  for (const [, identifier] of regexMatches(IDENTIFIER_PATTERN, withoutUrls)) {
    if (!named.has(identifier)) add('symbol', identifier);
  }
  return [...found.keys()];
}

/** Normalises caller-supplied entities: trimmed, no empties, no duplicates, `kind:name` kept as given. */
export function normaliseEntities(entities: readonly string[]): string[] {
  return [...new Set(entities.map((entity) => entity.trim()).filter((entity) => entity.length > 0))];
}

/**
 * The entities of edited content: those it still names (whoever added them) and those found in the
 * new text, so an edit drops entities of text that is gone instead of keeping them forever.
 */
export function entitiesAfterEdit(previous: readonly string[], content: string): string[] {
  const lower = content.toLowerCase();
  const stillNamed = previous.filter((entity) => lower.includes(entity.slice(entity.indexOf(':') + 1).toLowerCase()));
  return normaliseEntities([...stillNamed, ...extractEntities(content)]);
}
