/**
 * Turns "this error was there, the developer changed the code, now it is gone" into an outcome
 * worth remembering, so an agent that meets the same error later can recall what fixed it. Pure:
 * the editor adapter feeds it diagnostics snapshots (with the file's text), edits and the file's
 * last error-free text, with timestamps; it returns outcomes.
 *
 * Three rules keep a transient break out of long-term memory (docs/editor.md, "Resolved errors"):
 * the error lived at least `minAgeMs` (10 s), an edit preceded its disappearance, and the change
 * that fixed it is not a return to the text from before the error appeared (an undo, a revert,
 * the file restored on disk). The outcome carries the fix as a small line diff, never the file.
 */
import { type DiffHunk, diffLines, hunkMatchesBaseline, splitLines } from './lineDiff.ts';

export interface ObservedError {
  /** Workspace-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  message: string;
  source?: string;
  code?: string;
  /** The file's language (VS Code language id), so an agent knows what the fix is written in. */
  language?: string;
}

export interface ObservedEdit {
  file: string;
  /** 1-based first line of the change. */
  line: number;
  /** Inserted text; empty for a pure deletion. */
  inserted: string;
  /** Characters removed. */
  removed: number;
}

export interface ResolvedError {
  error: ObservedError;
  firstSeen: number;
  resolvedAt: number;
  /** The edits that most plausibly fixed it: same file and near the line first, newest last. */
  edits: ObservedEdit[];
  /**
   * The fix in the erroring file: the hunks between its text when the error appeared and now,
   * nearest the error first. Absent when the fix was made in other files only.
   */
  fix?: DiffHunk[];
}

export interface ResolvedErrorTrackerOptions {
  /** Errors younger than this are typing noise or a break undone at once, not problems worth a memory. */
  minAgeMs?: number;
  /** At most this many outcomes per snapshot: one fix often clears a cascade of follow-up errors. */
  maxPerSnapshot?: number;
  maxEditsKept?: number;
  /** Error-free texts kept for closed and renamed files, the oldest dropped first. */
  maxBaselines?: number;
}

/** The documented minimum age of an error worth remembering as resolved. */
export const MIN_ERROR_AGE_MS = 10_000;

interface Tracked {
  error: ObservedError;
  firstSeen: number;
  /** The file's text when the error was first seen. */
  brokenText?: string;
  /**
   * The file's text before the error appeared: at the previous diagnostics snapshot, and the last
   * error-free text. A fix that lands back on either is a revert, not a fix.
   */
  baselines: string[];
}

interface TimedEdit extends ObservedEdit {
  at: number;
}

const NEAR_LINES = 5;
const MAX_FIX_HUNKS = 3;

export class ResolvedErrorTracker {
  private readonly open = new Map<string, Map<string, Tracked>>();
  private readonly cleanTexts = new Map<string, string>();
  /** Each file's text at its latest diagnostics snapshot. */
  private readonly snapshotTexts = new Map<string, string>();
  private edits: TimedEdit[] = [];
  private readonly minAgeMs: number;
  private readonly maxPerSnapshot: number;
  private readonly maxEditsKept: number;
  private readonly maxBaselines: number;

  constructor(options: ResolvedErrorTrackerOptions = {}) {
    this.minAgeMs = options.minAgeMs ?? MIN_ERROR_AGE_MS;
    this.maxPerSnapshot = options.maxPerSnapshot ?? 3;
    this.maxEditsKept = options.maxEditsKept ?? 200;
    this.maxBaselines = options.maxBaselines ?? 100;
  }

  recordEdit(edit: ObservedEdit, at: number): void {
    this.edits.push({ ...edit, at });
    if (this.edits.length > this.maxEditsKept) this.edits = this.edits.slice(-this.maxEditsKept);
  }

  /**
   * The file's text at a moment it had no errors: what a later error is compared with, so that
   * restoring it (undo, revert) is not taken for a fix.
   */
  noteCleanText(file: string, text: string): void {
    this.remember(this.cleanTexts, file, text);
  }

  private remember(texts: Map<string, string>, file: string, text: string): void {
    texts.delete(file);
    texts.set(file, text);
    while (texts.size > this.maxBaselines) texts.delete(texts.keys().next().value!);
  }

  /**
   * The complete current set of errors of one file, with its text when the editor has it open.
   * Returns the errors that vanished since the previous snapshot and were fixed by a real change;
   * errors that vanish without any edit (a closed file, a restarted language server), with the
   * code back as it was before they appeared, or with no text to show the fix are dropped.
   */
  observe(file: string, errors: readonly ObservedError[], now: number, text?: string): ResolvedError[] {
    const previous = this.open.get(file) ?? new Map<string, Tracked>();
    const current = new Map<string, Tracked>();
    for (const error of errors) {
      const key = errorKey(error);
      current.set(key, previous.get(key) ?? this.firstSighting(error, now, text));
    }
    if (text !== undefined) {
      this.remember(this.snapshotTexts, file, text);
      if (errors.length === 0) this.noteCleanText(file, text);
    }
    const resolved: ResolvedError[] = [];
    for (const [key, tracked] of previous) {
      if (current.has(key) || now - tracked.firstSeen < this.minAgeMs) continue;
      const outcome = this.outcome(tracked, now, text);
      if (outcome) resolved.push(outcome);
    }
    if (current.size === 0) this.open.delete(file);
    else this.open.set(file, current);
    return resolved.slice(0, this.maxPerSnapshot);
  }

  /** Forget a file's open errors (closed or deleted) without reporting them; its error-free text stays. */
  forget(file: string): void {
    this.open.delete(file);
    this.snapshotTexts.delete(file);
  }

  /** A file renamed in the editor keeps its open errors and its error-free text under the new name. */
  rename(from: string, to: string): void {
    const moved = this.open.get(from);
    this.open.delete(from);
    this.snapshotTexts.delete(from);
    const clean = this.cleanTexts.get(from);
    if (clean !== undefined) {
      this.cleanTexts.delete(from);
      this.noteCleanText(to, clean);
    }
    const merged = new Map(this.open.get(to) ?? []);
    for (const [key, tracked] of moved ?? [])
      if (!merged.has(key)) merged.set(key, { ...tracked, error: { ...tracked.error, file: to } });
    // The new name's errors may have been seen before the rename was: they appeared over the same text.
    if (clean !== undefined)
      for (const tracked of merged.values()) if (!tracked.baselines.includes(clean)) tracked.baselines.push(clean);
    if (merged.size > 0) this.open.set(to, merged);
  }

  private firstSighting(error: ObservedError, now: number, text: string | undefined): Tracked {
    const baselines = [this.snapshotTexts.get(error.file), this.cleanTexts.get(error.file)].filter(
      (candidate): candidate is string => candidate !== undefined && candidate !== text,
    );
    return { error, firstSeen: now, ...(text !== undefined ? { brokenText: text } : {}), baselines };
  }

  private outcome(tracked: Tracked, now: number, text: string | undefined): ResolvedError | null {
    const recent = this.edits.filter((edit) => edit.at >= tracked.firstSeen && edit.at <= now);
    if (recent.length === 0) return null;
    const sameFile = recent.filter((edit) => edit.file === tracked.error.file);
    const base = { error: tracked.error, firstSeen: tracked.firstSeen, resolvedAt: now };
    if (sameFile.length === 0) return { ...base, edits: recent.slice(-3).map(withoutTime) };
    // Edited here, so the fix is here: without both texts there is nothing to show or compare.
    if (text === undefined || tracked.brokenText === undefined) return null;
    const now_ = splitLines(text);
    let fix = nearest(diffLines(splitLines(tracked.brokenText), now_), tracked.error.line - 1);
    // Hunks that put back the text from before the error are an undo, not the fix.
    for (const baseline of tracked.baselines) {
      const sinceBaseline = diffLines(splitLines(baseline), now_);
      fix = fix.filter((hunk) => !hunkMatchesBaseline(hunk, sinceBaseline));
    }
    if (fix.length === 0) return null;
    const near = sameFile.filter((edit) => Math.abs(edit.line - tracked.error.line) <= NEAR_LINES);
    return { ...base, edits: (near.length > 0 ? near : sameFile).slice(-3).map(withoutTime), fix };
  }
}

function withoutTime({ at: _at, ...edit }: TimedEdit): ObservedEdit {
  return edit;
}

/** The hunks within a few lines of the error (0-based line, old text), or else the single nearest one. */
function nearest(hunks: readonly DiffHunk[], line: number): DiffHunk[] {
  const distance = (hunk: DiffHunk): number => {
    const end = hunk.oldStart + Math.max(hunk.oldLines.length, 1) - 1;
    return line < hunk.oldStart ? hunk.oldStart - line : line > end ? line - end : 0;
  };
  const near = hunks.filter((hunk) => distance(hunk) <= NEAR_LINES);
  if (near.length > 0) return near.slice(0, MAX_FIX_HUNKS);
  const sorted = [...hunks].sort((a, b) => distance(a) - distance(b));
  return sorted.slice(0, 1);
}

/** Position-independent identity: fixing line 3 moves the errors below it, which must not count as resolved. */
function errorKey(error: ObservedError): string {
  return `${error.source ?? ''}\u0000${error.code ?? ''}\u0000${error.message}`;
}

/** The lines (1-based, inclusive) the fix occupies now: what an outcome's anchor points at. */
export function fixedLines(outcome: ResolvedError): { from: number; to: number } | null {
  if (!outcome.fix || outcome.fix.length === 0) return null;
  const from = Math.min(...outcome.fix.map((hunk) => hunk.newStart)) + 1;
  const to = Math.max(...outcome.fix.map((hunk) => hunk.newStart + Math.max(hunk.newLines.length, 1)));
  return { from, to };
}

/**
 * The memory text, written for an agent that meets the same error again: the error (code, message,
 * file, line, language), then the fix as a small diff of the changed lines (`-` before, `+` after).
 * Keystrokes are never listed; an edit is described by its inserted text only when the fix was in
 * another file.
 */
export function describeResolvedError(outcome: ResolvedError): string {
  const { error } = outcome;
  const label = [error.source, error.code].filter(Boolean).join(' ');
  const lines = [
    `Error resolved: ${label ? `[${label}] ` : ''}"${oneLine(error.message, 300)}" in ${error.file}:${error.line}${error.language ? ` (${error.language})` : ''}.`,
  ];
  if (outcome.fix && outcome.fix.length > 0) {
    for (const hunk of outcome.fix) {
      lines.push(`Fix (${error.file}:${rangeLabel(hunk.newStart + 1, hunk.newLines.length)}):`);
      lines.push(...shown(hunk.oldLines, '- '), ...shown(hunk.newLines, '+ '));
    }
    return lines.join('\n');
  }
  const files = [...new Set(outcome.edits.map((edit) => `${edit.file}:${edit.line}`))].join(', ');
  const added = outcome.edits
    .map((edit) => edit.inserted.trim())
    .filter(Boolean)
    .join(' ');
  lines.push(`Fixed in ${files}${added ? `: added "${oneLine(added, 200)}"` : ''}.`);
  return lines.join('\n');
}

/** At most this many lines of each side of a hunk are shown. */
const MAX_SHOWN = 12;

function shown(lines: readonly string[], prefix: string): string[] {
  const kept = lines.slice(0, MAX_SHOWN).map((line) => `${prefix}${line.slice(0, 200)}`);
  if (lines.length > MAX_SHOWN) kept.push(`${prefix}… ${lines.length - MAX_SHOWN} more lines`);
  return kept;
}

function rangeLabel(start: number, count: number): string {
  return count <= 1 ? String(start) : `${start}-${start + count - 1}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
