import type { AnchorChecker } from './anchorChecker.ts';
import { anchorFor } from './anchorChecker.ts';
import type { AnchorCheck, CodeAnchor } from './anchorModel.ts';
import { SKETCH_VERSION } from './codeFingerprint.ts';

/**
 * A visible tag on memories whose code changed or is gone, kept in step with their anchors by
 * whoever stores the statuses (the editor): both stores filter tags, so the panel's "stale" filter
 * is a tag filter and needs no metadata query.
 */
export const STALE_TAG = 'stale-code';

export function isStale(anchor: Pick<CodeAnchor, 'status'>): boolean {
  return anchor.status === 'changed' || anchor.status === 'gone';
}

/**
 * The anchors with the checker's status and location now, version-1 sketches migrated; `changed`
 * when any status, location or sketch differs from what was stored.
 */
export async function recheckAnchors(
  anchors: readonly CodeAnchor[],
  checker: AnchorChecker,
  at: string,
): Promise<{ anchors: CodeAnchor[]; changed: boolean }> {
  let changed = false;
  const next: CodeAnchor[] = [];
  for (const anchor of anchors) {
    const check = await checker.check(anchor);
    const { current: _previous, ...rest } = migratedSketch(anchor, check);
    const updated: CodeAnchor = {
      ...rest,
      status: check.status,
      checked_at: at,
      ...(check.current ? { current: check.current } : {}),
    };
    if (
      anchor.status !== updated.status ||
      JSON.stringify(anchor.current ?? null) !== JSON.stringify(updated.current ?? null) ||
      anchor.sketch !== updated.sketch ||
      anchor.tokens.length !== updated.tokens.length
    )
      changed = true;
    next.push(updated);
  }
  return { anchors: next, changed };
}

/**
 * A version-1 anchor in the current version: re-sketched from its code when the check found it
 * unchanged; else its sketch, which hashed literals one by one (guessable from an export), is
 * dropped, and the version-1 fingerprint alone says it changed (codeFingerprint.ts).
 */
export function migratedSketch(anchor: CodeAnchor, check: Pick<AnchorCheck, 'resketched'>): CodeAnchor {
  if (anchor.sketch === SKETCH_VERSION) return anchor;
  if (check.resketched) return { ...anchor, ...check.resketched };
  return anchor.tokens.length === 0 ? anchor : { ...anchor, tokens: [] };
}

/**
 * Follows a rename the editor saw (a file, or a folder and everything under it): the anchor keeps
 * the path it was stored with and points `current` at the new one, where the next check looks first.
 */
export function followRename(
  anchors: readonly CodeAnchor[],
  from: string,
  to: string,
): { anchors: CodeAnchor[]; changed: boolean } {
  let changed = false;
  const renamed = anchors.map((anchor) => {
    const where = anchor.current?.path ?? anchor.path;
    const moved = where === from ? to : where.startsWith(`${from}/`) ? `${to}${where.slice(from.length)}` : null;
    if (moved === null) return anchor;
    changed = true;
    return { ...anchor, current: { path: moved, lines: anchor.current?.lines ?? anchor.lines } };
  });
  return { anchors: renamed, changed };
}

/** The memory's tags with STALE_TAG present exactly when one of its anchors is stale. */
export function tagsForAnchors(tags: readonly string[], anchors: readonly CodeAnchor[]): string[] {
  const without = tags.filter((tag) => tag !== STALE_TAG);
  return anchors.some(isStale) ? [...without, STALE_TAG] : without;
}

/**
 * "Keep" in Review Stale Memories: the memory holds for the code as it is now, so each changed
 * anchor is re-anchored on the code where it is now (fresh again) and each gone anchor is dropped.
 */
export async function keepForCurrentCode(
  anchors: readonly CodeAnchor[],
  readLines: (path: string, start: number, end: number) => Promise<string | null>,
  at: string,
): Promise<CodeAnchor[]> {
  const kept: CodeAnchor[] = [];
  for (const anchor of anchors) {
    if (anchor.status === 'gone') continue;
    if (anchor.status !== 'changed') {
      kept.push(anchor);
      continue;
    }
    const where = anchor.current ?? { path: anchor.path, lines: anchor.lines };
    const code = await readLines(where.path, where.lines.start, where.lines.end);
    if (code === null) continue;
    kept.push({ ...anchorFor(where.path, code, where.lines, anchor.symbol), status: 'fresh', checked_at: at });
  }
  return kept;
}

/** Re-checks with a checker that has no cached knowledge of these paths (the editor saw them change). */
export function invalidatePaths(checker: AnchorChecker, paths: Iterable<string>): void {
  for (const path of paths) checker.invalidate(path);
}
