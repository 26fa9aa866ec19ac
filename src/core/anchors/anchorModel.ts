/**
 * Memories anchored to code (issue #18). An anchor is stored inside the memory's metadata
 * (`metadata.anchors`), so neither store needs a schema migration; its path is also stored as a
 * `file:<path>` entity, which both stores already index, so "what do we know about this file"
 * is an ordinary entity filter (see README, Anchors).
 */

import { ANCHORS_FIELD } from '../domain/rankingFacts.ts';
import type { CodeSketch } from './codeFingerprint.ts';

export type AnchorStatus = 'fresh' | 'moved' | 'changed' | 'gone';
/** 'unchecked': no workspace to check against here (a process without --workspace, say), and no earlier check stored. */
export type ReportedStatus = AnchorStatus | 'unchecked';

export const ANCHOR_STATUSES: readonly AnchorStatus[] = ['fresh', 'moved', 'changed', 'gone'];

export interface AnchorSymbol {
  name: string;
  /** function, class, method, interface, type, enum, struct, trait, variable… as the finder names it. */
  kind: string;
}

/** 1-based, inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

export interface CodeAnchor {
  /** Workspace-relative, forward slashes. */
  path: string;
  symbol?: AnchorSymbol;
  lines: LineRange;
  /** Hash of the anchored code with whitespace and formatting normalised away (codeFingerprint.ts): equal means fresh. */
  fingerprint: string;
  /** Hashed distinct tokens of the anchored code, literals excluded: finds it in other files, says how much changed. */
  tokens: number[];
  /** How many normalised tokens the anchored code had: finds the same code again at other lines. */
  size: number;
  /** The sketch's version (codeFingerprint.ts SKETCH_VERSION); absent on anchors stored before version 2. */
  sketch?: number;
  /** The last check's result, kept so processes without a workspace (the shared memory process) still know it. */
  status?: AnchorStatus;
  checked_at?: string;
  /** Where the code is now, when the last check found it elsewhere (moved) or at other lines. */
  current?: { path: string; lines: LineRange };
}

/** What a caller names when anchoring a memory: a path with a symbol or a line range (or both). */
export interface AnchorInput {
  path: string;
  symbol?: string;
  lines?: { start: number; end: number };
}

/** One anchor as recall and context report it. */
export interface AnchorReport {
  path: string;
  symbol?: AnchorSymbol;
  lines: LineRange;
  status: ReportedStatus;
  current?: { path: string; lines: LineRange };
}

/** The result of checking one anchor against the workspace. */
export interface AnchorCheck {
  status: AnchorStatus;
  /** Where the anchored code is now; absent when gone. */
  current?: { path: string; lines: LineRange };
  /** Token similarity of the code now to the code when anchored, when it was found (1 = same up to formatting). */
  similarity?: number;
  /**
   * A version-1 anchor's code found unchanged: its sketch in the current version, from the code as
   * it is now (the same code), so the anchor can be migrated (anchorUpdates.ts).
   */
  resketched?: CodeSketch;
}

export { ANCHORS_FIELD };

/** The anchors a memory's metadata carries; malformed entries (hand-edited metadata) are skipped, not trusted. */
export function anchorsOf(metadata: Record<string, unknown> | undefined): CodeAnchor[] {
  const raw = metadata?.[ANCHORS_FIELD];
  if (!Array.isArray(raw)) return [];
  return raw.filter(isCodeAnchor);
}

function isCodeAnchor(value: unknown): value is CodeAnchor {
  if (typeof value !== 'object' || value === null) return false;
  const anchor = value as Record<string, unknown>;
  const lines = anchor.lines as Record<string, unknown> | undefined;
  return (
    typeof anchor.path === 'string' &&
    anchor.path.length > 0 &&
    typeof anchor.fingerprint === 'string' &&
    Array.isArray(anchor.tokens) &&
    Number.isInteger(anchor.size) &&
    typeof lines === 'object' &&
    lines !== null &&
    Number.isInteger(lines.start) &&
    Number.isInteger(lines.end)
  );
}

/** The entity under which a memory anchored to `path` is found by recall's path filter. */
export function pathEntity(path: string): string {
  return `file:${path}`;
}

/** Stable identity of an anchor inside one memory, for caches. */
export function anchorKey(anchor: Pick<CodeAnchor, 'path' | 'fingerprint' | 'lines'>): string {
  return `${anchor.path}\u0000${anchor.fingerprint}\u0000${anchor.lines.start}-${anchor.lines.end}`;
}

export function reportOf(anchor: CodeAnchor, check: AnchorCheck | null): AnchorReport {
  const status: ReportedStatus = check?.status ?? anchor.status ?? 'unchecked';
  const current = check ? check.current : anchor.current;
  const moved =
    current &&
    (current.path !== anchor.path ||
      current.lines.start !== anchor.lines.start ||
      current.lines.end !== anchor.lines.end);
  return {
    path: anchor.path,
    ...(anchor.symbol ? { symbol: anchor.symbol } : {}),
    lines: anchor.lines,
    status,
    ...(moved ? { current } : {}),
  };
}
