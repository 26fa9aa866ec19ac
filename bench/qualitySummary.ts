/**
 * The one table `npm run bench:quality` ends with: the coding set per kind of wording gap, the
 * never-stored questions, and LoCoMo per k and per category, before issue 14's recall work and now.
 * "Before" is commit 9149ee2 (BM25 scores relative to the call's best hit, no floor, neighbours by
 * time), measured with this bench's sets on the same data; the coding figures come from running
 * bench/coding/codingRun.ts against that commit.
 */
import { GAP_KINDS } from './coding/codingData.ts';
import type { CodingResult } from './coding/codingRun.ts';
import { CATEGORY_NAMES, KS } from './locomo/locomoData.ts';
import { meanRecall, type RecallRow } from './locomo/recallTable.ts';

export const BEFORE_COMMIT = '9149ee2';

/** kind -> [recall@1, recall@5] in percent, at BEFORE_COMMIT. */
const BEFORE_CODING: Record<string, [number, number]> = {
  lex: [83.3, 83.3],
  morph: [66.7, 66.7],
  syn: [58.3, 66.7],
  hyper: [28.6, 85.7],
  para: [50.0, 66.7],
  all: [55.0, 72.5],
};
const BEFORE_NEGATIVES = { mean: 7.0, withAnyPercent: 80 };
/** category (or 'overall') -> recall@1/5/10/25/50 in percent, at BEFORE_COMMIT. */
const BEFORE_LOCOMO: Record<string, number[]> = {
  'multi-hop': [9.4, 29.7, 40.6, 55.3, 66.3],
  temporal: [61.9, 80.0, 83.5, 88.1, 90.5],
  'open-domain': [14.9, 27.0, 37.3, 43.5, 55.3],
  'single-hop': [39.6, 72.6, 83.3, 89.7, 94.6],
  adversarial: [39.2, 76.8, 85.0, 91.1, 95.8],
  overall: [37.6, 66.5, 75.5, 82.8, 88.4],
};

const cell = (value: number): string => value.toFixed(1).padStart(6);
/** Width of a row's label and count: "  single-hop        n= 418". */
const HEAD = 28;
const row = (label: string, n: number, before: string, after: string): string =>
  `  ${label.padEnd(HEAD - 9)}n=${String(n).padStart(4)} ${before}   ${after}`;
const header = (title: string, columns: readonly string[]): string => {
  const block = columns.map((column) => column.padStart(6)).join('');
  return `${title.padEnd(HEAD)}${' '.repeat(block.length - 'before'.length)}before${' '.repeat(3 + block.length - 'after'.length)}after\n${' '.repeat(HEAD)}${block}   ${block}`;
};

function codingLines(coding: CodingResult): string[] {
  const lines = [header(`coding dev set (+${coding.distractors} turns)`, ['@1', '@5'])];
  for (const kind of [...GAP_KINDS, 'all']) {
    const [at1, at5, n] = coding.byKind.get(kind) ?? [0, 0, 0];
    const after = n === 0 ? [0, 0] : [(100 * at1) / n, (100 * at5) / n];
    lines.push(row(kind, n, BEFORE_CODING[kind].map(cell).join(''), after.map(cell).join('')));
  }
  const counts = coding.negativeCounts;
  const mean = counts.reduce((sum, count) => sum + count, 0) / Math.max(1, counts.length);
  const withAny = (100 * counts.filter((count) => count > 0).length) / Math.max(1, counts.length);
  lines.push(header('never-stored questions', ['mean', 'any %']));
  lines.push(
    row(
      'results returned',
      counts.length,
      `${BEFORE_NEGATIVES.mean.toFixed(2).padStart(6)}${String(BEFORE_NEGATIVES.withAnyPercent).padStart(6)}`,
      `${mean.toFixed(2).padStart(6)}${withAny.toFixed(0).padStart(6)}`,
    ),
  );
  return lines;
}

function locomoLines(rows: readonly RecallRow[]): string[] {
  const lines = [
    header(
      'LoCoMo dev split, recall',
      KS.map((k) => `@${k}`),
    ),
  ];
  const groups: Array<[string, RecallRow[]]> = [
    ...[1, 2, 3, 4, 5].map((category): [string, RecallRow[]] => [
      CATEGORY_NAMES[category],
      rows.filter((entry) => entry.category === category),
    ]),
    ['overall', [...rows]],
  ];
  for (const [name, subset] of groups) {
    const after = KS.map((_, index) => meanRecall(subset, index));
    lines.push(row(name, subset.length, BEFORE_LOCOMO[name].map(cell).join(''), after.map(cell).join('')));
  }
  return lines;
}

/** Before and after, side by side; a set that was not run is left out. */
export function combinedTable(coding: CodingResult | null, rows: readonly RecallRow[]): string {
  const lines = [`Recall quality, embedded store, no model, no API key: before (${BEFORE_COMMIT}) and after`];
  if (coding) lines.push(...codingLines(coding));
  if (rows.length > 0) lines.push(...locomoLines(rows));
  return lines.join('\n');
}
