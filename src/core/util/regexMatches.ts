/**
 * Every match of a global pattern in a text, as `[...text.matchAll(pattern)]` gives them, without
 * the copy of the pattern `matchAll` makes on each call (a new RegExp through its species
 * constructor): detectors that run dozens of patterns over every stored text spent more time
 * copying patterns than matching. The pattern's lastIndex is 0 before and after.
 */
export function regexMatches(pattern: RegExp, text: string): RegExpExecArray[] {
  if (!pattern.global) throw new TypeError(`regexMatches needs a global pattern, got ${String(pattern)}`);
  const matches: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    matches.push(match);
    // As matchAll: an empty match moves on by one character (one code point when the pattern is Unicode-aware).
    if (match[0].length === 0)
      pattern.lastIndex = nextIndex(text, pattern.lastIndex, pattern.unicode || pattern.flags.includes('v'));
  }
  pattern.lastIndex = 0;
  return matches;
}

function nextIndex(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const first = text.charCodeAt(index);
  const second = text.charCodeAt(index + 1);
  return first >= 0xd800 && first <= 0xdbff && second >= 0xdc00 && second <= 0xdfff ? index + 2 : index + 1;
}
