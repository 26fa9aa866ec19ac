/**
 * Every time rule of recall switched off one at a time (timeRuleSwitches.ts) on the LoCoMo
 * development split: recall@10 on the tuning pair (conv-26, conv-30) and on the other development
 * conversations, overall and for the temporal and open-domain categories, as the change from all
 * rules on (issue 30 point 4: keep only what holds on both).
 *
 *   node bench/locomo/timeRuleAblation.ts                  # every rule
 *   node bench/locomo/timeRuleAblation.ts timeRanges ...   # the rules named
 *   node bench/locomo/timeRuleAblation.ts --dump FILE      # also every question's recall@10 with all rules on, as JSON
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import {
  switchOffTimeRulesForEvaluation,
  TIME_RULES,
  type TimeRule,
} from '../../src/core/retrieval/timeRuleSwitches.ts';
import { CATEGORY_NAMES, TUNING } from './locomoData.ts';
import { openLocomoCore, type QuestionRecall } from './locomoCore.ts';

const AT10 = 2; // index of @10 in KS
const args = process.argv.slice(2);
const dumpIndex = args.indexOf('--dump');
const dump = dumpIndex >= 0 ? args[dumpIndex + 1] : null;
const named = args.filter((arg, i) => !arg.startsWith('--') && i !== dumpIndex + 1);
const unknown = named.filter((rule) => !(TIME_RULES as readonly string[]).includes(rule));
if (unknown.length > 0) throw new Error(`unknown rules ${unknown.join(', ')}; known: ${TIME_RULES.join(', ')}`);
const rules = (named.length > 0 ? named : TIME_RULES) as readonly TimeRule[];

const mean = (rows: readonly QuestionRecall[]): number =>
  rows.length === 0 ? NaN : (100 * rows.reduce((sum, row) => sum + row.recall[AT10], 0)) / rows.length;
const columns: Array<[string, (row: QuestionRecall) => boolean]> = [
  ['tuning', (row) => TUNING.has(row.sample)],
  ['other', (row) => !TUNING.has(row.sample)],
  ...[2, 3].flatMap((category): Array<[string, (row: QuestionRecall) => boolean]> => [
    [`${CATEGORY_NAMES[category]} tuning`, (row) => row.category === category && TUNING.has(row.sample)],
    [`${CATEGORY_NAMES[category]} other`, (row) => row.category === category && !TUNING.has(row.sample)],
  ]),
];
const figures = (rows: readonly QuestionRecall[]): number[] => columns.map(([, keep]) => mean(rows.filter(keep)));

const locomo = await openLocomoCore();
const started = performance.now();
try {
  switchOffTimeRulesForEvaluation(null);
  const all = await locomo.recallAll();
  if (dump) writeFileSync(dump, JSON.stringify(all));
  const base = figures(all);
  console.log(`recall@10, all rules on, then the change with one rule off`);
  console.log(`| rule off | ${columns.map(([name]) => name).join(' | ')} |`);
  console.log(`|---|${columns.map(() => '---:').join('|')}|`);
  console.log(`| none (all on) | ${base.map((value) => value.toFixed(1)).join(' | ')} |`);
  for (const rule of rules) {
    switchOffTimeRulesForEvaluation([rule]);
    const off = figures(await locomo.recallAll());
    const delta = off.map((value, i) => value - base[i]);
    console.log(`| ${rule} | ${delta.map((value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`).join(' | ')} |`);
  }
} finally {
  switchOffTimeRulesForEvaluation(null);
  await locomo.close();
}
console.log(
  `\n${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
