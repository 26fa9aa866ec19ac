/**
 * The one table of the three development sets (issue 30): LoCoMo (development conversations, the
 * tuning pair and the others), the first coding set (with never-stored questions) and the second
 * (one developer's projects, with near-miss questions), each with a plain BM25 beside it.
 */
import { loadCodingSet, type CodingSet } from './coding/codingData.ts';
import type { CodingResult } from './coding/codingRun.ts';
import { loadProjectSet, recallAt, type ProjectSet, type ProjectSetResult } from './coding/codingSet2.ts';
import { Bm25Baseline } from './bm25Baseline.ts';
import { formatTurn, KS, recallAtKs, turnsOf, TUNING, type Sample } from './locomo/locomoData.ts';
import { meanRecall, type RecallRow } from './locomo/recallTable.ts';

export interface Negatives {
  mean: number;
  anyPercent: number;
}

export interface SetFigures {
  at1: number;
  at5: number;
  at10: number;
  paraphraseAt5: number | null;
  negatives: Negatives | null;
}

const AT10 = KS.indexOf(10);

export function negativesOf(counts: readonly number[]): Negatives {
  const n = Math.max(1, counts.length);
  return {
    mean: counts.reduce((sum, count) => sum + count, 0) / n,
    anyPercent: (100 * counts.filter((count) => count > 0).length) / n,
  };
}

export function locomoFigures(rows: readonly RecallRow[]): SetFigures {
  return {
    at1: meanRecall(rows, 0),
    at5: meanRecall(rows, 1),
    at10: meanRecall(rows, AT10),
    paraphraseAt5: null,
    negatives: null,
  };
}

/** BM25 over each conversation's turns, each question against its own conversation. */
export function locomoBm25(samples: readonly Sample[]): RecallRow[] {
  const rows: RecallRow[] = [];
  for (const sample of samples) {
    const bm25 = new Bm25Baseline();
    for (const turn of turnsOf(sample)) bm25.add(turn.dia_id, formatTurn(turn));
    for (const qa of sample.qa)
      rows.push({
        sample: sample.sample_id,
        category: qa.category,
        recall: recallAtKs(bm25.rank(qa.question, 50), qa.evidence),
      });
  }
  return rows;
}

export function codingFigures(result: CodingResult): SetFigures {
  const [all1, all5, n] = result.byKind.get('all') ?? [0, 0, 0];
  const [, para5, paraN] = result.byKind.get('para') ?? [0, 0, 0];
  return {
    at1: (100 * all1) / Math.max(1, n),
    at5: (100 * all5) / Math.max(1, n),
    at10: NaN,
    paraphraseAt5: (100 * para5) / Math.max(1, paraN),
    negatives: negativesOf(result.negativeCounts),
  };
}

export function codingBm25(set: CodingSet, distractors: Sample): SetFigures {
  const bm25 = new Bm25Baseline();
  for (const turn of turnsOf(distractors)) bm25.add(`turn:${turn.dia_id}`, formatTurn(turn));
  for (const memory of set.memories) bm25.add(memory.id, memory.text);
  const ranks = set.queries.map((query) => ({ kind: query.kind, rank: bm25.rank(query.q, 10).indexOf(query.id) }));
  const share = (list: typeof ranks, k: number) =>
    (100 * list.filter((entry) => entry.rank >= 0 && entry.rank < k).length) / Math.max(1, list.length);
  const para = ranks.filter((entry) => entry.kind === 'para');
  return {
    at1: share(ranks, 1),
    at5: share(ranks, 5),
    at10: NaN,
    paraphraseAt5: share(para, 5),
    negatives: negativesOf(set.negatives.map((question) => bm25.returned(question))),
  };
}

export function projectFigures(result: ProjectSetResult): SetFigures {
  return {
    at1: recallAt(result.queries, 1),
    at5: recallAt(result.queries, 5),
    at10: recallAt(result.queries, 10),
    paraphraseAt5: recallAt(
      result.queries.filter((entry) => entry.query.kind === 'para'),
      5,
    ),
    negatives: negativesOf(result.negativeCounts),
  };
}

export function projectBm25(set: ProjectSet): SetFigures {
  const bm25 = new Bm25Baseline();
  for (const memory of set.memories) bm25.add(memory.id, memory.text);
  const queries = set.queries.map((query) => ({ query, rank: bm25.rank(query.q, 10).indexOf(query.target) }));
  return projectFigures({
    queries,
    negativeCounts: set.negatives.map((question) => bm25.returned(question)),
    negativesOnlyWeak: 0,
  });
}

export interface ThreeSets {
  locomo: RecallRow[] | null;
  locomoSamples: readonly Sample[];
  coding: CodingResult | null;
  codingDistractors: Sample | null;
  project: ProjectSetResult | null;
}

const num = (value: number | null | undefined, digits = 1): string =>
  (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits)).padStart(7);

function line(label: string, figures: SetFigures): string {
  const negatives = figures.negatives;
  return `  ${label.padEnd(34)}${num(figures.at1)}${num(figures.at5)}${num(figures.at10)}${num(figures.paraphraseAt5)}${num(negatives?.mean, 2)}${num(negatives?.anyPercent, 0)}`;
}

/** The table printed at the end of `npm run bench:quality`. */
export function threeSetTable(sets: ThreeSets): string {
  const lines = [
    'Three development sets, no model (this project, then a plain BM25 k1 0.9 b 0.4 on the same memories)',
    `  ${'set'.padEnd(34)}${'R@1'.padStart(7)}${'R@5'.padStart(7)}${'R@10'.padStart(7)}${'para@5'.padStart(7)}${'neg n'.padStart(7)}${'any %'.padStart(7)}`,
  ];
  if (sets.locomo) {
    const tuning = sets.locomo.filter((row) => TUNING.has(row.sample));
    const other = sets.locomo.filter((row) => !TUNING.has(row.sample));
    const bm25 = locomoBm25(sets.locomoSamples);
    lines.push(line('LoCoMo dev, all conversations', locomoFigures(sets.locomo)));
    lines.push(line('  BM25', locomoFigures(bm25)));
    lines.push(line('LoCoMo tuning (conv-26, conv-30)', locomoFigures(tuning)));
    lines.push(line('LoCoMo other dev conversations', locomoFigures(other)));
  }
  if (sets.coding && sets.codingDistractors) {
    lines.push(line('coding (never-stored negatives)', codingFigures(sets.coding)));
    lines.push(line('  BM25', codingBm25(loadCodingSet(), sets.codingDistractors)));
  }
  if (sets.project) {
    lines.push(line('coding-2 (near-miss negatives)', projectFigures(sets.project)));
    lines.push(line('  BM25', projectBm25(loadProjectSet())));
    const weak = sets.project.negativesOnlyWeak;
    lines.push(`  coding-2 near-miss questions answered only with results marked weak: ${weak}`);
  }
  return lines.join('\n');
}
