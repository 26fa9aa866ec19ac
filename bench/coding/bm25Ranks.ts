/**
 * Per-question BM25 rank on the first coding set (same corpus as diagnose.ts), to set beside
 * diagnose.ts's ranks: node bench/coding/bm25Ranks.ts
 */
import { Bm25Baseline } from '../bm25Baseline.ts';
import { formatTurn, loadSamples, sessionsOf } from '../locomo/locomoData.ts';
import { loadCodingSet } from './codingData.ts';

const bm25 = new Bm25Baseline();
const distractors = loadSamples().find((sample) => sample.sample_id === 'conv-26')!;
for (const session of sessionsOf(distractors))
  for (const turn of session.turns) bm25.add(`turn:${turn.dia_id}`, formatTurn(turn));
const set = loadCodingSet();
for (const memory of set.memories) bm25.add(memory.id, memory.text);
for (const query of set.queries) {
  const ranked = bm25.rank(query.q, 10);
  console.log(`${query.kind.padEnd(6)} bm25 rank ${String(ranked.indexOf(query.id)).padStart(3)}  ${query.q}`);
}
