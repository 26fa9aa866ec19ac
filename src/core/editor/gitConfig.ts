/**
 * The remote URL from the text of a `.git/config`, read directly so the project scope is known at
 * activation without waiting for the git extension or spawning git. Prefers `origin`.
 */
export function remoteUrlFromGitConfig(text: string): string | null {
  const remotes = new Map<string, string>();
  let current: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[\s*remote\s+"([^"]+)"\s*\]$/.exec(line);
    if (section) {
      current = section[1];
      continue;
    }
    if (line.startsWith('[')) {
      current = null;
      continue;
    }
    const url = /^url\s*=\s*(.+)$/.exec(line);
    if (current !== null && url && !remotes.has(current)) remotes.set(current, url[1].trim().replace(/^"(.*)"$/, '$1'));
  }
  return remotes.get('origin') ?? remotes.values().next().value ?? null;
}
