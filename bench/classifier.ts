/**
 * `npm run bench:classifier`: accuracy of the offline classifier (classifyContent) on the labelled
 * developer notes, per category, for the tuning split and the held-out split. The held-out split
 * is the honest figure: rules were only ever tuned against the tuning split.
 *
 *   npm run bench:classifier                 # both splits
 *   npm run bench:classifier -- --misses     # also list the misclassified tuning notes
 */
import { accuracyTable, classifierAccuracy, loadLabelledNotes } from './classifier/classifierAccuracy.ts';

const showMisses = process.argv.includes('--misses');
for (const split of ['tuning', 'heldout'] as const) {
  const report = classifierAccuracy(loadLabelledNotes(split));
  console.log(`\n${split === 'tuning' ? 'Tuning split' : 'Held-out split'}\n${accuracyTable(report)}`);
  if (showMisses && split === 'tuning') {
    for (const miss of report.misses)
      console.log(`  ${miss.expected.padEnd(24)} got ${miss.got.padEnd(24)} (${miss.rule}) ${miss.text}`);
  }
}
