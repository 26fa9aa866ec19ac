/**
 * Decides whether a workspace file may be captured into memory. Files that usually hold credentials
 * are refused by name whatever the settings say; user globs (`files.exclude` and the extension's own
 * exclude setting) add to that list.
 */

const SENSITIVE_NAMES: readonly RegExp[] = [
  /^\.env(\..*)?$/i,
  /^\.envrc$/i,
  /\.(pem|key|p12|pfx|jks|keystore|kdbx|asc|gpg|ppk)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /^\.(npmrc|pypirc|netrc|pgpass|git-credentials|htpasswd)$/i,
  /^credentials(\.json)?$/i,
  /^secrets?\.(json|ya?ml|toml)$/i,
  /^service[-_]?account.*\.json$/i,
];

const SENSITIVE_DIRS: readonly string[] = ['.ssh', '.aws', '.gnupg', '.docker'];

/** True for files refused regardless of settings (`.env`, private keys, credential stores). */
export function isSensitivePath(path: string): boolean {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  const name = parts[parts.length - 1] ?? '';
  if (SENSITIVE_NAMES.some((pattern) => pattern.test(name))) return true;
  return parts.slice(0, -1).some((dir) => SENSITIVE_DIRS.includes(dir));
}

/**
 * Compiles a VS Code style glob (`**`, `*`, `?`, `{a,b}`, `[abc]`) into a matcher over
 * workspace-relative paths with forward slashes. A pattern without a slash matches at any depth,
 * as `files.exclude` does for names like `node_modules`.
 */
export function compileGlob(glob: string): (relativePath: string) => boolean {
  const pattern = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  const anyDepth = !pattern.includes('/');
  const source = globToRegex(pattern);
  const regex = new RegExp(anyDepth ? `(^|/)${source}(/|$)` : `^${source}(/|$)`);
  return (relativePath) => regex.test(relativePath.replace(/\\/g, '/').replace(/^\/+/, ''));
}

export class PathFilter {
  private readonly matchers: Array<(path: string) => boolean>;

  constructor(globs: readonly string[]) {
    this.matchers = globs.filter((glob) => glob.trim() !== '').map(compileGlob);
  }

  /** `relativePath` is workspace-relative; `absolutePath` is checked for sensitive names. */
  allows(relativePath: string, absolutePath: string = relativePath): boolean {
    if (isSensitivePath(absolutePath) || isSensitivePath(relativePath)) return false;
    return !this.matchers.some((matches) => matches(relativePath));
  }
}

function globToRegex(glob: string): string {
  let out = '';
  let inGroup = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*') {
      if (glob[index + 1] === '*') {
        index++;
        if (glob[index + 1] === '/') {
          index++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (char === '?') out += '[^/]';
    else if (char === '{') {
      inGroup++;
      out += '(?:';
    } else if (char === '}' && inGroup > 0) {
      inGroup--;
      out += ')';
    } else if (char === ',' && inGroup > 0) out += '|';
    else if (char === '[') {
      const end = glob.indexOf(']', index);
      if (end === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(index + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        index = end;
      }
    } else out += char.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return out;
}
