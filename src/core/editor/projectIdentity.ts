import { sha256Hex } from '../util/sha256.ts';

/**
 * The project scope of a workspace. Clones of one repository must share memories whatever URL form
 * they were cloned with, so the git remote is normalised to `git:<host>/<owner>/<repo>`; a folder
 * without a remote falls back to a hash of its path, stable on one machine.
 */
export function projectIdFromGitRemote(remoteUrl: string): string | null {
  const url = remoteUrl.trim();
  if (url === '') return null;
  let host: string;
  let path: string;
  // scp-like syntax: git@github.com:owner/repo.git
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(url);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    host = scp[1];
    path = scp[2];
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // Not a URL and not scp syntax (e.g. a local path remote): no network identity to share.
      return null;
    }
    if (parsed.protocol === 'file:') return null;
    host = parsed.hostname;
    path = parsed.pathname;
  }
  const cleanPath = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/g, '');
  if (cleanPath === '') return null;
  return `git:${host.toLowerCase()}/${cleanPath.toLowerCase()}`;
}

export function projectIdFromFolder(folderPath: string): string {
  const name =
    folderPath
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? 'folder';
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60) || 'folder';
  const hash = sha256Hex(folderPath).slice(0, 12);
  return `folder:${safeName}-${hash}`;
}
