/**
 * A light symbol finder for the core and the CLI, where no language server runs: declarations of
 * TypeScript/JavaScript, Python, Go, Rust and Java found by regular expressions, each with the
 * line range of its body (braces counted, or Python's indentation).
 *
 * Limits (README, Anchors): it sees declarations at the start of a line only; braces inside strings,
 * template literals or comments can end a body early or late; overloads and same-named methods in
 * different classes are told apart only by order; languages outside the list have no symbols (their
 * anchors use line ranges). The extension uses the editor's document symbols instead.
 */

export interface FoundSymbol {
  name: string;
  kind: string;
  /** 1-based, inclusive. */
  start: number;
  end: number;
}

type Language = 'ts' | 'python' | 'go' | 'rust' | 'java';

const EXTENSIONS: Record<string, Language> = {
  ts: 'ts',
  tsx: 'ts',
  mts: 'ts',
  cts: 'ts',
  js: 'ts',
  jsx: 'ts',
  mjs: 'ts',
  cjs: 'ts',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
};

interface Rule {
  pattern: RegExp;
  kind: string;
}

const RULES: Record<Language, readonly Rule[]> = {
  ts: [
    { pattern: /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/, kind: 'function' },
    { pattern: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/, kind: 'class' },
    { pattern: /^\s*(?:export\s+)?interface\s+([A-Za-z_$][\w$]*)/, kind: 'interface' },
    { pattern: /^\s*(?:export\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*=/, kind: 'type' },
    { pattern: /^\s*(?:export\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/, kind: 'enum' },
    {
      pattern:
        /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/,
      kind: 'function',
    },
    { pattern: /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)/, kind: 'variable' },
    {
      pattern:
        /^\s+(?:(?:public|private|protected|static|readonly|async|override|abstract|get|set)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^)]*\)?\s*(?::\s*[^{;]+)?\{?\s*$/,
      kind: 'method',
    },
  ],
  python: [
    { pattern: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, kind: 'function' },
    { pattern: /^\s*class\s+([A-Za-z_]\w*)/, kind: 'class' },
  ],
  go: [
    { pattern: /^func\s+\([^)]*\)\s*([A-Za-z_]\w*)/, kind: 'method' },
    { pattern: /^func\s+([A-Za-z_]\w*)/, kind: 'function' },
    { pattern: /^type\s+([A-Za-z_]\w*)\s+struct\b/, kind: 'struct' },
    { pattern: /^type\s+([A-Za-z_]\w*)\s+interface\b/, kind: 'interface' },
    { pattern: /^type\s+([A-Za-z_]\w*)/, kind: 'type' },
  ],
  rust: [
    {
      pattern:
        /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/,
      kind: 'function',
    },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?struct\s+([A-Za-z_]\w*)/, kind: 'struct' },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?enum\s+([A-Za-z_]\w*)/, kind: 'enum' },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?trait\s+([A-Za-z_]\w*)/, kind: 'trait' },
    { pattern: /^\s*impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?([A-Za-z_]\w*)/, kind: 'impl' },
    { pattern: /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)\s*\{/, kind: 'module' },
  ],
  java: [
    {
      pattern: /^\s*(?:(?:public|private|protected|static|final|abstract|sealed)\s+)*(?:class|record)\s+([A-Za-z_]\w*)/,
      kind: 'class',
    },
    { pattern: /^\s*(?:(?:public|private|protected|static|sealed)\s+)*interface\s+([A-Za-z_]\w*)/, kind: 'interface' },
    { pattern: /^\s*(?:(?:public|private|protected|static)\s+)*enum\s+([A-Za-z_]\w*)/, kind: 'enum' },
    {
      pattern:
        /^\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default)\s+)+(?:<[^>]+>\s+)?[\w<>\[\],.? ]+\s+([A-Za-z_]\w*)\s*\(/,
      kind: 'method',
    },
  ],
};

/** Words the method rule would otherwise take for a method name. */
const NOT_METHODS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'else',
  'do',
  'try',
  'with',
  'new',
  'await',
  'typeof',
  'super',
  'this',
]);

export function languageOf(path: string): Language | null {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? null : (EXTENSIONS[path.slice(dot + 1).toLowerCase()] ?? null);
}

/** The declarations of a file, in order of appearance; [] for a language the finder does not know. */
export function findSymbols(path: string, text: string): FoundSymbol[] {
  const language = languageOf(path);
  if (!language) return [];
  const lines = text.split(/\r?\n/);
  const symbols: FoundSymbol[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    for (const rule of RULES[language]) {
      const match = rule.pattern.exec(line);
      if (!match) continue;
      const name = match[1];
      if (rule.kind === 'method' && NOT_METHODS.has(name)) break;
      const end = language === 'python' ? indentedEnd(lines, index) : bracedEnd(lines, index);
      symbols.push({ name, kind: rule.kind, start: index + 1, end: end + 1 });
      break;
    }
  }
  return symbols;
}

/**
 * Last line (0-based) of a declaration starting at `from`: where its braces close, or, for a
 * declaration without a body (`const x = 1;`, a type alias), where its brackets balance and the
 * line does not continue (ends with an operator, opener or comma). A brace on the next line (Allman
 * style) still opens the body.
 */
function bracedEnd(lines: readonly string[], from: number): number {
  let braces = 0;
  let brackets = 0;
  let opened = false;
  for (let index = from; index < lines.length; index++) {
    const code = stripStrings(lines[index]);
    for (const char of code) {
      if (char === '{') {
        braces++;
        opened = true;
      } else if (char === '}') braces--;
      else if (char === '(' || char === '[') brackets++;
      else if (char === ')' || char === ']') brackets--;
    }
    if (opened) {
      if (braces <= 0) return index;
      continue;
    }
    const continues = /[{(\[=,:>|&+\-*\/?.]\s*$/.test(code.trimEnd());
    const braceNext = lines[index + 1]?.trim().startsWith('{') ?? false;
    if (brackets <= 0 && !continues && !braceNext) return index;
  }
  return lines.length - 1;
}

function stripStrings(line: string): string {
  return line.replace(/\/\/.*$/, '').replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

/** Last line (0-based) of a Python block: up to the next non-blank line indented no deeper than the header. */
function indentedEnd(lines: readonly string[], from: number): number {
  const indent = indentation(lines[from]);
  let last = from;
  for (let index = from + 1; index < lines.length; index++) {
    if (lines[index].trim() === '') continue;
    if (indentation(lines[index]) <= indent) break;
    last = index;
  }
  return last;
}

function indentation(line: string): number {
  return line.length - line.trimStart().length;
}
