/**
 * Leave-one-conversation-out check of the dialog-neighbour constants (issue 30 point 4): every
 * setting of a grid over the neighbour decay, the reply's share, the steps and the fewest seeds is
 * asked on all five LoCoMo development conversations; for each conversation the setting best on the
 * other four (recall@10) is chosen and measured on it. Then each constant alone, on the tuning pair
 * (conv-26, conv-30) and on the other three, per category.
 *
 *   node bench/locomo/neighbourHoldout.ts
 */
import { loadavg } from 'node:os';
import {
  PRODUCT_NEIGHBOUR_TUNING,
  tuneNeighboursForEvaluation,
  type NeighbourTuning,
} from '../../src/core/retrieval/conversationNeighbours.ts';
import { CATEGORY_NAMES, TUNING } from './locomoData.ts';
import { openLocomoCore, type QuestionRecall } from './locomoCore.ts';

const AT10 = 2; // index of @10 in KS
const DECAYS = [0.6, 0.7, 0.8, 0.9];
/** null: the reply gets the plain decay (no reply rule). */
const ANSWER_SHARES = [null, 0.9, 0.96, 1];
const HOPS = [1, 2, 3];
const MIN_SEEDS = [10, 20, 40];

interface Setting {
  decay: number;
  answerShare: number | null;
  hops: number;
  minSeeds: number;
}

const product: Setting = {
  decay: PRODUCT_NEIGHBOUR_TUNING.decay,
  answerShare: PRODUCT_NEIGHBOUR_TUNING.answerShare,
  hops: 2,
  minSeeds: PRODUCT_NEIGHBOUR_TUNING.minSeeds,
};
const keyOf = (s: Setting): string =>
  `decay ${s.decay}, reply ${s.answerShare ?? 'off'}, steps ${s.hops}, seeds ${s.minSeeds}`;
const tuningOf = (s: Setting): NeighbourTuning => ({
  decay: s.decay,
  answerShare: s.answerShare ?? s.decay,
  hops: s.hops,
  minSeeds: s.minSeeds,
});

const settings: Setting[] = [];
for (const decay of DECAYS)
  for (const answerShare of ANSWER_SHARES)
    for (const hops of HOPS) for (const minSeeds of MIN_SEEDS) settings.push({ decay, answerShare, hops, minSeeds });

const mean = (rows: readonly QuestionRecall[], at = AT10): number =>
  rows.length === 0 ? NaN : (100 * rows.reduce((sum, row) => sum + row.recall[at], 0)) / rows.length;
const fmt = (value: number): string => (Number.isNaN(value) ? '–' : value.toFixed(1));

const locomo = await openLocomoCore();
const results = new Map<string, QuestionRecall[]>();
const started = performance.now();
try {
  for (const setting of settings) {
    tuneNeighboursForEvaluation(tuningOf(setting));
    results.set(keyOf(setting), await locomo.recallAll());
  }
} finally {
  tuneNeighboursForEvaluation(null);
  await locomo.close();
}
const conversations = locomo.samples.map((sample) => sample.sample_id);
const productRows = results.get(keyOf(product))!;
console.log(
  `${settings.length} settings × ${productRows.length} questions in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);

/** Leave one conversation out over `choices`: choose on four (best @10, the product's on a tie), measure on the fifth. */
function leaveOneOut(title: string, choices: readonly Setting[]): void {
  console.log(`\nLeave one conversation out, ${title}, recall@10 (chosen on the other four, measured on this one)`);
  console.log('| held out | chosen on the other four | held out: product → chosen | its temporal: product → chosen |');
  console.log('|---|---|---|---|');
  let productTotal = 0;
  let chosenTotal = 0;
  for (const held of conversations) {
    let best = product;
    let bestScore = mean(productRows.filter((row) => row.sample !== held));
    for (const setting of choices) {
      const score = mean(results.get(keyOf(setting))!.filter((row) => row.sample !== held));
      if (score > bestScore + 1e-9) [best, bestScore] = [setting, score];
    }
    const heldRows = (s: Setting): QuestionRecall[] => results.get(keyOf(s))!.filter((row) => row.sample === held);
    const temporal = (rows: QuestionRecall[]): QuestionRecall[] => rows.filter((row) => row.category === 2);
    productTotal += heldRows(product).reduce((sum, row) => sum + row.recall[AT10], 0);
    chosenTotal += heldRows(best).reduce((sum, row) => sum + row.recall[AT10], 0);
    console.log(
      `| ${held} | ${keyOf(best)} | ${fmt(mean(heldRows(product)))} → ${fmt(mean(heldRows(best)))} | ${fmt(mean(temporal(heldRows(product))))} → ${fmt(mean(temporal(heldRows(best))))} |`,
    );
  }
  console.log(
    `all five held-out folds, @10: product ${fmt((100 * productTotal) / productRows.length)}, chosen per fold ${fmt((100 * chosenTotal) / productRows.length)}`,
  );
}
leaveOneOut('the whole grid', settings);
leaveOneOut(
  'decay alone',
  DECAYS.map((decay) => ({ ...product, decay })),
);
leaveOneOut(
  'reply share alone',
  ANSWER_SHARES.map((answerShare) => ({ ...product, answerShare })),
);
leaveOneOut(
  'steps alone',
  HOPS.map((hops) => ({ ...product, hops })),
);

// Each constant alone (the others at the product's values): tuning pair and the other three, per category.
const categories = Object.keys(CATEGORY_NAMES).map(Number);
const split = (rows: QuestionRecall[], tuning: boolean): QuestionRecall[] =>
  rows.filter((row) => TUNING.has(row.sample) === tuning);
console.log('\nEach constant alone, recall@10: tuning pair (conv-26, conv-30) · other three, per category then all');
console.log(`| setting | ${categories.map((c) => CATEGORY_NAMES[c]).join(' | ')} | all |`);
console.log(`|---|${categories.map(() => '---|').join('')}---|`);
const alone: Setting[] = [
  ...DECAYS.map((decay) => ({ ...product, decay })),
  ...ANSWER_SHARES.map((answerShare) => ({ ...product, answerShare })),
  ...HOPS.map((hops) => ({ ...product, hops })),
  ...MIN_SEEDS.map((minSeeds) => ({ ...product, minSeeds })),
];
const seen = new Set<string>();
for (const setting of alone) {
  const key = keyOf(setting);
  if (seen.has(key)) continue;
  seen.add(key);
  const rows = results.get(key)!;
  const cell = (subset: QuestionRecall[]): string =>
    `${fmt(mean(split(subset, true)))} · ${fmt(mean(split(subset, false)))}`;
  console.log(
    `| ${key}${key === keyOf(product) ? ' (product)' : ''} | ${categories.map((c) => cell(rows.filter((row) => row.category === c))).join(' | ')} | ${cell(rows)} |`,
  );
}
