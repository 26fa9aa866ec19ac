// Node bundles whose every character is below 256. V8 keeps a script's whole source in the heap for
// as long as its functions live (lazy compilation reads it), as one byte a character when every
// character fits Latin-1 and two bytes a character otherwise. One `…` in a comment made the 4.9 MB
// CLI bundle a 9.4 MB string in every memory process. esbuild escapes strings and identifiers
// (`charset: 'ascii'`, its default) but copies comments, regular expression literals and template
// raw text as they are, so the sources are escaped as esbuild loads them.
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

const WIDE = /[^\u0000-\u00ff]/u;
const WIDE_ALL = /[^\u0000-\u00ff]/gu;

/** `\uXXXX` escapes of a code point (a surrogate pair's two for one above U+FFFF). */
function escapeOf(codePoint) {
  const hex = (unit) => `\\u${unit.toString(16).padStart(4, '0')}`;
  if (codePoint <= 0xffff) return hex(codePoint);
  const offset = codePoint - 0x10000;
  return hex(0xd800 + (offset >> 10)) + hex(0xdc00 + (offset & 0x3ff));
}

/** Where each tagged template of a source sits (its raw text is what the tag reads, so no escape may change it). */
function taggedTemplateRanges(text, fileName) {
  const kind = /\.[cm]?tsx?$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const ranges = [];
  const visit = (node) => {
    if (ts.isTaggedTemplateExpression(node)) ranges.push([node.template.getStart(source), node.template.end]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { ranges, lineOf: (at) => source.getLineAndCharacterOfPosition(at).line + 1 };
}

/**
 * `text` with every character of U+0100 and above written as a `\u` escape, which reads the same in
 * a string, a template's cooked value, a regular expression (an escaped surrogate pair is one code
 * point under the `u` flag) and an identifier, and changes nothing in a comment. An escaped
 * character (`\…`, an identity escape) loses its backslash: `\u2026` is already the character. A
 * wide character in a tagged template's raw text, or a raw line or paragraph separator (U+2028,
 * U+2029: a line end outside strings), has no escape that keeps its meaning: the file is refused,
 * naming the line.
 */
export function latin1Source(text, fileName) {
  if (!WIDE.test(text)) return text;
  const { ranges, lineOf } = taggedTemplateRanges(text, fileName);
  let out = '';
  let copied = 0;
  for (const match of text.matchAll(WIDE_ALL)) {
    const at = match.index;
    const codePoint = match[0].codePointAt(0);
    const refuse = (why) => {
      const name = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
      throw new Error(`${fileName}:${lineOf(at)}: ${name} ${why}; write it as an escape in the source.`);
    };
    if (ranges.some(([start, end]) => at >= start && at < end)) refuse('is in the raw text of a tagged template');
    let backslashes = 0;
    while (at - backslashes > 0 && text[at - backslashes - 1] === '\\') backslashes++;
    const escaped = backslashes % 2 === 1;
    // Outside a string a line or paragraph separator ends a line (a `//` comment with it): no escape keeps that.
    if (codePoint === 0x2028 || codePoint === 0x2029) refuse('is a line terminator');
    // The escaping backslash is the last character before the match, so it is left out of the copy.
    out += text.slice(copied, escaped ? at - 1 : at) + escapeOf(codePoint);
    copied = at + match[0].length;
  }
  return out + text.slice(copied);
}

const LOADERS = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

/** The esbuild plugin: every script it loads goes through `latin1Source`. */
export const latin1Sources = {
  name: 'latin1-sources',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!WIDE.test(text)) return undefined;
      const extension = path.slice(path.lastIndexOf('.'));
      return { contents: latin1Source(text, path), loader: LOADERS[extension] };
    });
  },
};

/** The first character of U+0100 and above in a bundle, as `line:column U+XXXX`, or null when there is none. */
export function firstWideCharacter(text) {
  const match = WIDE.exec(text);
  if (match === null) return null;
  const before = text.slice(0, match.index);
  const line = before.split('\n').length;
  const column = match.index - before.lastIndexOf('\n');
  return `${line}:${column} U+${match[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
