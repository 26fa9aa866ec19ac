import type { FoundSymbol } from '../anchors/symbolFinder.ts';

/**
 * What Remember Selection stores (issue #32 point 2): the user's one-line note first, so the list row
 * and the CodeLens lead with why the code matters, then where the code is and the code itself.
 * Pure, so it is tested without an editor.
 */

/** The code a selection memory quotes follows this header line. */
const HEADER = /^From (.+):(\d+)-(\d+) \(([^)]*)\):$/;

export interface SelectedCode {
  file: string;
  /** 1-based, inclusive. */
  start: number;
  end: number;
  language: string;
  code: string;
}

/** The memory's text: the note (when there is one), a blank line, then `From file:start-end (language):` and the code. */
export function selectionContent(note: string | null, selected: SelectedCode): string {
  const quoted = `From ${selected.file}:${selected.start}-${selected.end} (${selected.language}):\n${selected.code}`;
  return note ? `${note}\n\n${quoted}` : quoted;
}

/** What the note's input box starts with: the enclosing symbol's name and a colon, so typing goes on after it. */
export function notePrefill(symbolName: string | null): string {
  return symbolName ? `${symbolName}: ` : '';
}

/**
 * The note as typed: one line, trimmed, a dangling colon dropped (the prefill accepted as it is);
 * null when nothing is left or the box was dismissed (Escape stores the code without a note).
 */
export function noteFrom(value: string | undefined): string | null {
  if (value === undefined) return null;
  const note = value.replace(/\s+/g, ' ').trim().replace(/\s*:$/, '').trim();
  return note === '' ? null : note;
}

/** The innermost declaration holding lines `start..end` (1-based), by the core's symbol finder; null when none does. */
export function enclosingSymbol(symbols: readonly FoundSymbol[], start: number, end: number): FoundSymbol | null {
  let best: FoundSymbol | null = null;
  for (const symbol of symbols) {
    if (symbol.start > start || symbol.end < end) continue;
    if (!best || symbol.end - symbol.start < best.end - best.start) best = symbol;
  }
  return best;
}

/** The code a selection memory quoted when it was stored, or null when its text holds none (another kind of memory). */
export function quotedCodeOf(content: string): SelectedCode | null {
  const lines = content.split('\n');
  const at = lines.findIndex((line) => HEADER.test(line));
  if (at < 0) return null;
  const [, file, start, end, language] = HEADER.exec(lines[at])!;
  return { file, start: Number(start), end: Number(end), language, code: lines.slice(at + 1).join('\n') };
}
