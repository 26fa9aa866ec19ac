/**
 * Replaces spans of a text by `[REDACTED:<kind>]`. Spans that overlap or touch are one redaction
 * covering all of them (labelled by the first), so no part of a longer secret is left behind
 * when a shorter finding starts earlier.
 */

export interface LabelledSpan {
  kind: string;
  index: number;
  length: number;
}

export interface ReplacedText {
  content: string;
  /** How many redactions of each kind, in order of first appearance. */
  counts: Map<string, number>;
}

export function replaceSpans(text: string, spans: readonly LabelledSpan[]): ReplacedText {
  const ordered = [...spans].filter((span) => span.length > 0).sort((a, b) => a.index - b.index || b.length - a.length);
  const counts = new Map<string, number>();
  let content = '';
  let cursor = 0;
  for (let at = 0; at < ordered.length;) {
    const first = ordered[at];
    let end = first.index + first.length;
    at++;
    while (at < ordered.length && ordered[at].index <= end) {
      end = Math.max(end, ordered[at].index + ordered[at].length);
      at++;
    }
    content += text.slice(cursor, first.index) + `[REDACTED:${first.kind}]`;
    cursor = end;
    counts.set(first.kind, (counts.get(first.kind) ?? 0) + 1);
  }
  return { content: content + text.slice(cursor), counts };
}
