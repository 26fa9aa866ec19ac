/**
 * The evidence turns a set of LoCoMo conversations misses at recall@10, counted by kind (issue 30
 * point 4): cut by the floor (in the top 10 with no floor), the question abstained, next to a top-10
 * hit (one or two turns away in its session), the turn right after a question turn, sharing no
 * word with the question beyond the speakers' names, or only a speaker's name.
 *
 *   node bench/locomo/missKinds.ts [--tuning] [--category N] [--list]
 */
import { formatTurn, normaliseEvidence, TUNING, turnsOf } from './locomoData.ts';
import { openLocomoCore } from './locomoCore.ts';

const tuning = process.argv.includes('--tuning');
const list = process.argv.includes('--list');
const categoryIndex = process.argv.indexOf('--category');
const category = categoryIndex >= 0 ? Number(process.argv[categoryIndex + 1]) : null;
const locomo = await openLocomoCore();
const counts = new Map<string, number>();
const count = (kind: string): void => {
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
};
const position = (id: string): [number, number] => {
  const [, session, turn] = /^D(\d+):(\d+)$/.exec(id)!.map(Number);
  return [session, turn];
};
try {
  for (const sample of locomo.samples.filter((s) => TUNING.has(s.sample_id) === tuning)) {
    const speakers = new Set(
      ['speaker_a', 'speaker_b'].map((key) => String(sample.conversation[key]).toLowerCase().split(/\s+/)[0]),
    );
    const turns = new Map(turnsOf(sample).map((turn) => [normaliseEvidence([turn.dia_id])[0], turn]));
    for (const qa of sample.qa.filter((q) => category === null || q.category === category)) {
      const evidence = normaliseEvidence(qa.evidence);
      const floored = await locomo.ask(sample, qa);
      const open = await locomo.ask(sample, qa, 0, 100);
      const ids = (memories: typeof floored.memories): string[] =>
        memories.map((memory) => normaliseEvidence([String(memory.metadata.dia_id)])[0]);
      const top10 = ids(floored.memories).slice(0, 10);
      const openIds = ids(open.memories);
      for (const id of evidence) {
        if (top10.includes(id) || !turns.has(id)) continue;
        count('missed');
        const kinds: string[] = [];
        const openRank = openIds.indexOf(id);
        const memory = open.memories[openRank];
        if (floored.memories.length === 0) kinds.push('abstained');
        if (openRank >= 0 && openRank < 10) kinds.push('floor cut');
        const [session, turn] = position(id);
        const near = top10.some((other) => {
          const [s, t] = position(other);
          return s === session && Math.abs(t - turn) <= 2 && t !== turn;
        });
        if (near) kinds.push('next to a top-10 hit');
        const previous = turns.get(`D${session}:${turn - 1}`);
        if (previous && previous.text.includes('?')) {
          kinds.push('after a question');
          const asked = openIds.indexOf(`D${session}:${turn - 1}`);
          kinds.push(
            asked < 0
              ? 'its question not in top 100'
              : asked < 10
                ? 'its question in top 10'
                : 'its question in top 100',
          );
        }
        const terms = memory?.score_breakdown.matched_terms ?? [];
        const own = terms.filter((term) => !speakers.has(term));
        if (own.length === 0) kinds.push(terms.length > 0 ? 'speaker name only' : 'no shared word');
        if (memory?.score_breakdown.signals.includes('neighbour')) kinds.push('reached as neighbour');
        for (const kind of kinds) count(kind);
        if (list)
          console.log(
            `${sample.sample_id} c${qa.category} ${qa.question} [${String(qa.answer)}]\n   ${id} open ${openRank < 0 ? '-' : openRank + 1} ${kinds.join(', ')} [${terms.join(' ')}] ${formatTurn(turns.get(id)!).slice(0, 140)}`,
          );
      }
    }
  }
} finally {
  await locomo.close();
}
console.log([...counts].map(([kind, n]) => `${kind}: ${n}`).join('\n'));
