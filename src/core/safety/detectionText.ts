/**
 * The text secret detection reads: Unicode NFKC (full-width and compatibility forms folded to
 * ASCII) with zero-width and invisible format characters removed, so a key split by a U+200B or
 * typed in full-width letters is read as the key it is. Findings in that text map back to spans of
 * the original, which is what gets replaced (invisible characters inside a key go with it).
 */
export interface DetectionText {
  text: string;
  /** Start and end (exclusive) in the original text of a span [index, index + length) of `text`. */
  toOriginal(index: number, length: number): { index: number; length: number };
}

/** Zero-width space / non-joiner / joiner, word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel separator. */
const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u00AD\u180E]/;

export function detectionText(original: string): DetectionText {
  const normalised = original.normalize('NFKC');
  if (normalised === original && !INVISIBLE.test(original))
    return { text: original, toOriginal: (index, length) => ({ index, length }) };
  let text = '';
  // starts[i]: where in the original the character that produced text[i] begins; ends[i]: where it ends.
  const starts: number[] = [];
  const ends: number[] = [];
  for (let at = 0; at < original.length;) {
    const codePoint = original.codePointAt(at)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const character = original.slice(at, at + width);
    if (!INVISIBLE.test(character)) {
      const folded = character.normalize('NFKC');
      for (let k = 0; k < folded.length; k++) {
        starts.push(at);
        ends.push(at + width);
      }
      text += folded;
    }
    at += width;
  }
  return {
    text,
    toOriginal(index, length) {
      if (text.length === 0) return { index: 0, length: 0 };
      const start = starts[Math.min(index, starts.length - 1)];
      const end = ends[Math.min(index + length, ends.length) - 1];
      return { index: start, length: end - start };
    },
  };
}
