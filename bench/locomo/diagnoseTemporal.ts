/**
 * The temporal questions a set of LoCoMo conversations misses at recall@10, one by one: where each
 * evidence turn ranks (with the default floor, and with no floor), whether recall abstained, and
 * what outranks it (issue 30 point 4).
 *
 *   node bench/locomo/diagnoseTemporal.ts                 # the conversations outside the tuning pair
 *   node bench/locomo/diagnoseTemporal.ts --tuning        # the tuning pair
 *   node bench/locomo/diagnoseTemporal.ts --category 1    # another category
 */
import { formatTurn, normaliseEvidence, TUNING, turnsOf } from './locomoData.ts';
import { openLocomoCore } from './locomoCore.ts';

const tuning = process.argv.includes('--tuning');
const categoryIndex = process.argv.indexOf('--category');
const category = categoryIndex >= 0 ? Number(process.argv[categoryIndex + 1]) : 2;
const locomo = await openLocomoCore();
const clip = (text: string, length = 110): string => (text.length > length ? `${text.slice(0, length)}…` : text);
try {
  for (const sample of locomo.samples.filter((s) => TUNING.has(s.sample_id) === tuning)) {
    const turns = new Map(turnsOf(sample).map((turn) => [normaliseEvidence([turn.dia_id])[0], turn]));
    for (const qa of sample.qa.filter((q) => q.category === category)) {
      const evidence = normaliseEvidence(qa.evidence);
      const floored = await locomo.ask(sample, qa);
      const open = await locomo.ask(sample, qa, 0, 100);
      const ids = (memories: typeof floored.memories): string[] =>
        memories.map((memory) => normaliseEvidence([String(memory.metadata.dia_id)])[0]);
      const flooredIds = ids(floored.memories);
      if (evidence.every((id) => flooredIds.slice(0, 10).includes(id))) continue;
      const openIds = ids(open.memories);
      console.log(`\n${sample.sample_id} · ${qa.question}  [answer: ${String(qa.answer)}]`);
      console.log(
        `  returned ${floored.memories.length}${floored.retrieval_breakdown.abstained ? ' (abstained)' : ''}; time ${JSON.stringify(floored.retrieval_breakdown.time_filter)}`,
      );
      for (const id of evidence) {
        const rank = flooredIds.indexOf(id);
        const openRank = openIds.indexOf(id);
        const memory = open.memories[openRank];
        console.log(
          `  evidence ${id}: rank ${rank < 0 ? '-' : rank + 1} (no floor ${openRank < 0 ? '-' : openRank + 1}${memory ? `, ${memory.relevance_score.toFixed(3)} ${memory.score_breakdown.signals.join('+')}` : ''}) ${clip(turns.get(id) ? formatTurn(turns.get(id)!) : '?')}`,
        );
      }
      for (const memory of open.memories.slice(0, 3))
        console.log(
          `    top ${String(memory.metadata.dia_id)} ${memory.relevance_score.toFixed(3)} ${memory.score_breakdown.signals.join('+')} [${memory.score_breakdown.matched_terms.join(' ')}] ${clip(memory.content, 90)}`,
        );
    }
  }
} finally {
  await locomo.close();
}
