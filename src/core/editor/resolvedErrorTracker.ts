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
  observe(file: string, errors: readonly ObservedError[], now: number): ResolvedError[] {
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
      resolved.push({ error: tracked.error, firstSeen: tracked.firstSeen, resolvedAt: now, edits });
    }
    if (current.size === 0) this.open.delete(file);
    else this.open.set(file, current);
    return resolved.slice(0, this.maxPerSnapshot);
  }

  /** Forget a file entirely (closed or deleted) without reporting its errors as resolved. */
  forget(file: string): void {
    this.open.delete(file);
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

/** The memory text: what the error was, where, and the change that made it go away. */
export function describeResolvedError(outcome: ResolvedError): string {
  const { error } = outcome;
  const label = [error.source, error.code].filter(Boolean).join(' ');
  const lines = [`Error resolved: ${label ? `[${label}] ` : ''}"${oneLine(error.message, 300)}" in ${error.file}:${error.line}.`];
  if (error.lineText && error.lineText.trim() !== '') lines.push(`Line before the fix: ${oneLine(error.lineText.trim(), 200)}`);
  const changes = outcome.edits.map((edit) =>
    edit.inserted.trim() === ''
      ? `deleted ${edit.removed} characters at ${edit.file}:${edit.line}`
      : `${edit.removed > 0 ? `replaced ${edit.removed} characters with` : 'inserted'} "${oneLine(edit.inserted.trim(), 200)}" at ${edit.file}:${edit.line}`,
  );
  lines.push(`Resolved by: ${changes.join('; ')}.`);
  return lines.join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
