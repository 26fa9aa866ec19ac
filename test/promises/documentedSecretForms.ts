import { readFileSync } from 'node:fs';

/**
 * The credential kinds and forms README's "Secret detection" table documents, read from the table
 * itself, so a kind or form added to the README without a sample (or a sample whose rule regressed)
 * fails test/promises/secretKindSamples.test.ts.
 *
 * Table shape: `| Found by | Kinds |`; in the Kinds cell each kind is a backticked label, optionally
 * followed by a parenthesised group of backticked forms (prefixes such as `ghp_`, or templates such
 * as `DB_PASSWORD=` and `<password>…</password>`).
 */
export interface DocumentedRow {
  /** The "Found by" cell: tells which kind of forms the row holds. */
  foundBy: string;
  kinds: string[];
  /** Backticked forms of each kind's parenthesised group (the group that follows the kind). */
  forms: Map<string, string[]>;
}

const README = new URL('../../docs/lifecycle.md', import.meta.url);

export function documentedSecretRows(markdown = readFileSync(README, 'utf8')): DocumentedRow[] {
  const start = markdown.indexOf('### Secret detection');
  if (start === -1) throw new Error('README has no "### Secret detection" section');
  const section = markdown.slice(start, markdown.indexOf('\n### ', start + 1));
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Found by') && !line.startsWith('|---'));
  if (rows.length === 0) throw new Error('README "Secret detection" has no table rows');
  return rows.map(parseRow);
}

function parseRow(line: string): DocumentedRow {
  const cells = line.split(/(?<!\\)\|/).slice(1, -1);
  if (cells.length !== 2) throw new Error(`Secret detection row without two cells: ${line}`);
  const [foundBy, kindsCell] = cells.map((cell) => cell.trim());
  const kinds: string[] = [];
  const forms = new Map<string, string[]>();
  // A kind: a backticked label outside parentheses; its forms: the backticked items of the
  // parenthesised group right after it (a group never nests).
  const token = /`([^`]+)`|\(([^()]*)\)/g;
  let last: string | null = null;
  for (const match of kindsCell.matchAll(token)) {
    if (match[1] !== undefined) {
      last = match[1];
      kinds.push(last);
      forms.set(last, []);
    } else if (last !== null) {
      forms.get(last)!.push(...[...match[2].matchAll(/`([^`]+)`/g)].map((form) => form[1]));
    }
  }
  return { foundBy, kinds, forms };
}
