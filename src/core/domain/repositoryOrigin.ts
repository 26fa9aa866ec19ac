/**
 * Where a project memory shared through the repository lives (issue #34): its `.memory/` file, what
 * the last sync saw of it, the last commit git knows for it, and why the last sync changed it. Kept
 * in the memory's metadata under one key, so every process on a data directory shares it and the
 * panel and recall can show it without another read.
 */
export const REPOSITORY_FIELD = 'repository';

export interface RepositoryOrigin {
  /** Workspace-relative: ".memory/run-the-migrations-1a2b3c4d.md". */
  path: string;
  /** Hash of the file's text as last written or read. */
  hash: string;
  /** The file's `version` then. */
  version: number;
  /** The memory's updated_at when the sync last matched the two sides. */
  synced_at: string;
  /** The last commit that touched the file, when git knows it. */
  commit?: string;
  author?: string;
  committed_at?: string;
  /** Why the last sync changed the memory or its file (syncPlan's reason), for the panel. */
  last_sync?: string;
  /** Anchors the file names that did not resolve in this workspace: kept as written, and written back. */
  unresolved_anchors?: string[];
}

/** The origin a memory's metadata carries; null when it has none or it is malformed (hand-edited metadata). */
export function repositoryOriginOf(metadata: Record<string, unknown> | undefined): RepositoryOrigin | null {
  const raw = metadata?.[REPOSITORY_FIELD];
  if (typeof raw !== 'object' || raw === null) return null;
  const origin = raw as Record<string, unknown>;
  if (typeof origin.path !== 'string' || typeof origin.hash !== 'string') return null;
  if (typeof origin.version !== 'number' || typeof origin.synced_at !== 'string') return null;
  const text = (key: string): string | undefined => (typeof origin[key] === 'string' ? origin[key] : undefined);
  const commit = text('commit');
  const author = text('author');
  const committedAt = text('committed_at');
  const lastSync = text('last_sync');
  const unresolved = Array.isArray(origin.unresolved_anchors)
    ? origin.unresolved_anchors.filter((anchor): anchor is string => typeof anchor === 'string' && anchor !== '')
    : [];
  return {
    path: origin.path,
    hash: origin.hash,
    version: origin.version,
    synced_at: origin.synced_at,
    ...(commit ? { commit } : {}),
    ...(author ? { author } : {}),
    ...(committedAt ? { committed_at: committedAt } : {}),
    ...(lastSync ? { last_sync: lastSync } : {}),
    ...(unresolved.length > 0 ? { unresolved_anchors: unresolved } : {}),
  };
}

/** "from .memory/x.md @1a2b3c4 by Alice": how recall and the panel name a repository memory's source. */
export function provenanceText(origin: RepositoryOrigin): string {
  const commit = origin.commit ? ` @${origin.commit.slice(0, 7)}` : ' (not committed)';
  const author = origin.author ? ` by ${origin.author}` : '';
  return `from ${origin.path}${commit}${author}`;
}
