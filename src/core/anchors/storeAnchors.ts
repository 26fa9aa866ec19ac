import { MemoryError } from '../domain/errors.ts';
import { extractEntities } from '../entities/extractEntities.ts';
import type { AnchorChecker } from './anchorChecker.ts';
import { ANCHORS_FIELD, anchorsOf, type AnchorInput, type CodeAnchor, pathEntity } from './anchorModel.ts';
import { requireAnchorPath } from './anchorPaths.ts';

/** Anchors one memory may carry: a memory is about a few places in the code, not a whole module. */
export const MAX_ANCHORS = 5;

/**
 * The anchors a new memory gets: those the caller names (`anchors`, resolved against the workspace),
 * those already resolved by the editor (`metadata.anchors`, from a selection, a resolved error or the
 * active editor), and, when neither is given, the files and symbols its content names that exist in
 * the workspace. Without a workspace only already-resolved anchors can be stored.
 */
export async function anchorsForStore(
  checker: AnchorChecker | null,
  input: { anchors?: readonly AnchorInput[]; metadata?: Record<string, unknown>; content: string },
): Promise<CodeAnchor[]> {
  const given = input.anchors ?? [];
  if (!Array.isArray(given))
    throw new MemoryError('INVALID_INPUT', 'anchors must be a list of { path, symbol | lines }.', {
      details: { field: 'anchors' },
    });
  const resolved = requireResolvedAnchors(input.metadata?.[ANCHORS_FIELD]);
  if (given.length + resolved.length > MAX_ANCHORS) {
    throw new MemoryError('INVALID_INPUT', `A memory carries at most ${MAX_ANCHORS} anchors.`, {
      details: { field: 'anchors' },
    });
  }
  if (given.length > 0 && !checker) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      'anchors need a workspace to resolve them against: start the server with --workspace DIR (in VS Code: a trusted window with a folder on disk).',
      { details: { field: 'anchors' } },
    );
  }
  const anchors = [...resolved];
  for (const anchor of given) anchors.push(await checker!.create(anchor));
  if (anchors.length === 0 && checker) anchors.push(...(await namedInContent(checker, input.content)));
  return dedupe(anchors);
}

/** Files and declared symbols the content names that exist in the workspace, as anchors (at most MAX_ANCHORS). */
async function namedInContent(checker: AnchorChecker, content: string): Promise<CodeAnchor[]> {
  const anchors: CodeAnchor[] = [];
  for (const entity of extractEntities(content)) {
    if (anchors.length >= MAX_ANCHORS) break;
    const colon = entity.indexOf(':');
    const kind = entity.slice(0, colon);
    const name = entity.slice(colon + 1);
    if (kind === 'file') {
      const anchor = await checker.fileAnchor(name);
      if (anchor) anchors.push(anchor);
    } else if (kind === 'symbol') {
      const anchor = await checker.declarationAnchor(name);
      if (anchor) anchors.push(anchor);
    }
  }
  return anchors;
}

/** metadata.anchors as the editor sends them: every entry a complete anchor, or the call is refused. */
function requireResolvedAnchors(value: unknown): CodeAnchor[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : null;
  const valid = list ? anchorsOf({ [ANCHORS_FIELD]: list }) : [];
  if (!list || valid.length !== list.length) {
    throw new MemoryError(
      'INVALID_INPUT',
      'metadata.anchors must hold complete anchors (path, lines, fingerprint, tokens, size); pass anchors: [{ path, symbol | lines }] instead.',
      {
        details: { field: 'metadata.anchors' },
      },
    );
  }
  for (const anchor of valid) requireAnchorPath(anchor.path, 'metadata.anchors.path');
  return valid;
}

function dedupe(anchors: readonly CodeAnchor[]): CodeAnchor[] {
  const seen = new Set<string>();
  return anchors.filter((anchor) => {
    const key = `${anchor.path}\u0000${anchor.fingerprint}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The memory's entities plus one `file:<path>` per anchor (and where it is now), which the path filter finds. */
export function withAnchorEntities(entities: readonly string[], anchors: readonly CodeAnchor[]): string[] {
  const paths = anchors.flatMap((anchor) =>
    anchor.current && anchor.current.path !== anchor.path ? [anchor.path, anchor.current.path] : [anchor.path],
  );
  return [...new Set([...entities, ...paths.map(pathEntity)])];
}
