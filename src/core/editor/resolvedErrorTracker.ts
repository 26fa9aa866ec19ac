/**
 * Turns "this error was there, the developer edited, now it is gone" into an outcome worth
 * remembering, so an agent that meets the same error later can recall what fixed it. Pure: the
 * editor adapter feeds it diagnostics snapshots and edits with timestamps; it returns outcomes.
 */

export interface ObservedError {
  /** Workspace-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  message: string;
  source?: string;
  code?: string;
  /** Text of the line when the error was seen, so the outcome can show before and after. */
  lineText?: string;
  /** The file's language (VS Code language id), so an agent knows what the fix is written in. */
  language?: string;
  /** The lines around the error when it was first seen (1-based `start`), for the before/after of the fix. */
  window?: LineWindow;
}

export interface LineWindow {
  start: number;
  lines: string[];
}

/** Reads the current text of lines `from`..`to` (1-based, inclusive) of the erroring file; fewer at its end. */
export type ReadLines = (from: number, to: number) => string[];

export interface ObservedEdit {
  file: string;
  /** 1-based first line of the change. */
  line: number;
  /** Inserted text; empty for a pure deletion. */
  inserted: string;
  /** Characters removed. */
  removed: number;
  /** Lines the edit added (negative: removed), so the error's region can be found again after it. */
  linesAdded?: number;
}

export interface ResolvedError {
  error: ObservedError;
  firstSeen: number;
  resolvedAt: number;
  /** The edits that most plausibly fixed it: same file and near the line first, newest last. */
  edits: ObservedEdit[];
  /** The error's region as it was and as it is now, when the file's text was at hand. */
  after?: LineWindow;
}

export interface ResolvedErrorTrackerOptions {
  /** Errors younger than this are typing noise (a half-written line), not problems worth a memory. */
  minAgeMs?: number;
  /** At most this many outcomes per snapshot: one fix often clears a cascade of follow-up errors. */
  maxPerSnapshot?: number;
  maxEditsKept?: number;
}

interface Tracked {
  error: ObservedError;
  firstSeen: number;
}

interface TimedEdit extends ObservedEdit {
  at: number;
}

const NEAR_LINES = 5;

export class ResolvedErrorTracker {
  private readonly open = new Map<string, Map<string, Tracked>>();
  private edits: TimedEdit[] = [];
  private readonly minAgeMs: number;
  private readonly maxPerSnapshot: number;
  private readonly maxEditsKept: number;

  constructor(options: ResolvedErrorTrackerOptions = {}) {
    this.minAgeMs = options.minAgeMs ?? 5_000;
    this.maxPerSnapshot = options.maxPerSnapshot ?? 3;
    this.maxEditsKept = options.maxEditsKept ?? 200;
  }

  recordEdit(edit: ObservedEdit, at: number): void {
    this.edits.push({ ...edit, at });
    if (this.edits.length > this.maxEditsKept) this.edits = this.edits.slice(-this.maxEditsKept);
  }

  /**
   * The complete current set of errors of one file. Returns the errors that vanished since the
   * previous snapshot and were preceded by an edit; errors that vanish without any edit (a closed
   * file, a restarted language server) are dropped silently because nothing fixed them.
   */
  observe(file: string, errors: readonly ObservedError[], now: number, readLines?: ReadLines): ResolvedError[] {
    const previous = this.open.get(file) ?? new Map<string, Tracked>();
    const current = new Map<string, Tracked>();
    for (const error of errors) {
      const key = errorKey(error);
      current.set(key, previous.get(key) ?? { error, firstSeen: now });
    }
    const resolved: ResolvedError[] = [];
    for (const [key, tracked] of previous) {
      if (current.has(key) || now - tracked.firstSeen < this.minAgeMs) continue;
      const edits = this.fixingEdits(tracked, now);
      if (edits.length === 0) continue;
      const after = readLines && tracked.error.window ? this.regionNow(tracked, now, readLines) : undefined;
      resolved.push({
        error: tracked.error,
        firstSeen: tracked.firstSeen,
        resolvedAt: now,
        edits,
        ...(after ? { after } : {}),
      });
    }
    if (current.size === 0) this.open.delete(file);
    else this.open.set(file, current);
    return resolved.slice(0, this.maxPerSnapshot);
  }

  /** Forget a file entirely (closed or deleted) without reporting its errors as resolved. */
  forget(file: string): void {
    this.open.delete(file);
  }

  /** Where the error's window sits now: shifted by the lines that edits above it added or removed. */
  private regionNow(tracked: Tracked, now: number, readLines: ReadLines): LineWindow {
    const window = tracked.error.window!;
    const shift = this.edits
      .filter(
        (edit) =>
          edit.file === tracked.error.file &&
          edit.at >= tracked.firstSeen &&
          edit.at <= now &&
          edit.line < window.start,
      )
      .reduce((sum, edit) => sum + (edit.linesAdded ?? 0), 0);
    const changedInside = this.edits
      .filter(
        (edit) =>
          edit.file === tracked.error.file &&
          edit.at >= tracked.firstSeen &&
          edit.at <= now &&
          edit.line >= window.start &&
          edit.line < window.start + window.lines.length,
      )
      .reduce((sum, edit) => sum + (edit.linesAdded ?? 0), 0);
    const start = Math.max(1, window.start + shift);
    return { start, lines: readLines(start, start + Math.max(0, window.lines.length + changedInside) - 1) };
  }

  private fixingEdits(tracked: Tracked, now: number): ObservedEdit[] {
    const window = this.edits.filter((edit) => edit.at >= tracked.firstSeen && edit.at <= now);
    const sameFile = window.filter((edit) => edit.file === tracked.error.file);
    const near = sameFile.filter((edit) => Math.abs(edit.line - tracked.error.line) <= NEAR_LINES);
    const chosen = near.length > 0 ? near : sameFile.length > 0 ? sameFile : window;
    return chosen.slice(-3).map(({ at: _at, ...edit }) => edit);
  }
}

/** Position-independent identity: fixing line 3 moves the errors below it, which must not count as resolved. */
function errorKey(error: ObservedError): string {
  return `${error.source ?? ''}\u0000${error.code ?? ''}\u0000${error.message}`;
}

/**
 * The memory text, written for an agent that meets the same error again: the error (code, message,
 * file, line, language), then the lines that changed, before and after. Keystrokes are never
 * listed; an edit is described by its inserted text only when the fix was in another file.
 */
export function describeResolvedError(outcome: ResolvedError): string {
  const { error } = outcome;
  const label = [error.source, error.code].filter(Boolean).join(' ');
  const lines = [
    `Error resolved: ${label ? `[${label}] ` : ''}"${oneLine(error.message, 300)}" in ${error.file}:${error.line}${error.language ? ` (${error.language})` : ''}.`,
  ];
  const change = error.window && outcome.after ? changedLines(error.window, outcome.after) : null;
  if (change) {
    lines.push(
      `Before (${error.file}:${rangeLabel(error.window!.start + change.skip, change.before.length)}):`,
      ...indent(change.before),
    );
    lines.push(
      `After (${error.file}:${rangeLabel(outcome.after!.start + change.skip, change.after.length)}):`,
      ...indent(change.after),
    );
    return lines.join('\n');
  }
  if (error.lineText && error.lineText.trim() !== '')
    lines.push(`Line before the fix: ${oneLine(error.lineText.trim(), 200)}`);
  const elsewhere = outcome.edits.filter((edit) => edit.file !== error.file);
  if (elsewhere.length > 0 && elsewhere.length === outcome.edits.length) {
    const files = [...new Set(elsewhere.map((edit) => `${edit.file}:${edit.line}`))].join(', ');
    const added = elsewhere
      .map((edit) => edit.inserted.trim())
      .filter(Boolean)
      .join(' ');
    lines.push(`Fixed in ${files}${added ? `: added "${oneLine(added, 200)}"` : ''}.`);
  } else {
    const touched = [
      ...new Set(outcome.edits.filter((edit) => edit.file === error.file).map((edit) => edit.line)),
    ].sort((a, b) => a - b);
    lines.push(`Fixed by editing ${error.file} at line${touched.length === 1 ? '' : 's'} ${touched.join(', ')}.`);
  }
  return lines.join('\n');
}

/** The lines that differ between two versions of a region: common leading and trailing lines cut. */
function changedLines(
  before: LineWindow,
  after: LineWindow,
): { skip: number; before: string[]; after: string[] } | null {
  let head = 0;
  while (head < before.lines.length && head < after.lines.length && before.lines[head] === after.lines[head]) head++;
  let tail = 0;
  while (
    tail < before.lines.length - head &&
    tail < after.lines.length - head &&
    before.lines[before.lines.length - 1 - tail] === after.lines[after.lines.length - 1 - tail]
  ) {
    tail++;
  }
  const changedBefore = before.lines.slice(head, before.lines.length - tail);
  const changedAfter = after.lines.slice(head, after.lines.length - tail);
  if (changedBefore.length === 0 && changedAfter.length === 0) return null;
  return { skip: head, before: changedBefore.slice(0, MAX_SHOWN), after: changedAfter.slice(0, MAX_SHOWN) };
}

const MAX_SHOWN = 12;

function rangeLabel(start: number, count: number): string {
  return count <= 1 ? String(start) : `${start}-${start + count - 1}`;
}

function indent(lines: readonly string[]): string[] {
  return lines.length === 0 ? ['    (no lines)'] : lines.map((line) => `    ${line.slice(0, 200)}`);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
