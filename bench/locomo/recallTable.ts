import { CATEGORY_NAMES, KS, TUNING } from './locomoData.ts';

export interface RecallRow {
  sample: string;
  category: number;
  recall: number[];
}

function mean(rows: readonly RecallRow[], k: number): string {
  if (rows.length === 0) return '  -  ';
  return ((100 * rows.reduce((sum, row) => sum + row.recall[k], 0)) / rows.length).toFixed(1).padStart(5);
}

export function meanRecall(rows: readonly RecallRow[], kIndex: number): number {
  return rows.length === 0 ? 0 : (100 * rows.reduce((sum, row) => sum + row.recall[kIndex], 0)) / rows.length;
}

export function splits(rows: readonly RecallRow[]): Array<[string, RecallRow[]]> {
  return [
    ['tuning', rows.filter((row) => TUNING.has(row.sample))],
    ['held-out', rows.filter((row) => !TUNING.has(row.sample))],
    ['all', [...rows]],
  ];
}

export function summaryLine(name: string, rows: readonly RecallRow[]): string {
  const cells = splits(rows).map(([, subset]) => KS.map((_, i) => mean(subset, i)).join(' '));
  return `${name.padEnd(42)} | ${cells.join(' | ')}`;
}

/** Overall and per-category recall@k for the tuning, held-out and whole split. */
export function detailTable(title: string, rows: readonly RecallRow[]): string {
  const lines = [`\n${title}: recall@${KS.join('/')} (n = questions)`];
  for (const [split, subset] of splits(rows)) {
    lines.push(`  ${split}`);
    for (const category of [1, 2, 3, 4, 5]) {
      const inCategory = subset.filter((row) => row.category === category);
      lines.push(
        `    ${CATEGORY_NAMES[category].padEnd(12)} n=${String(inCategory.length).padStart(3)}  ${KS.map((_, i) => mean(inCategory, i)).join(' ')}`,
      );
    }
    lines.push(
      `    ${'overall'.padEnd(12)} n=${String(subset.length).padStart(3)}  ${KS.map((_, i) => mean(subset, i)).join(' ')}`,
    );
  }
  return lines.join('\n');
}
