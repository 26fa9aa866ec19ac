/**
 * Offline lexical-retrieval evaluator on the LoCoMo development split (see
 * ../shared/data/README.md for the format and the metric). One index per conversation,
 * one memory per dialog turn, each question searched against its own conversation.
 * Conversations conv-26 and conv-30 are the tuning split; conv-41..43 are held out.
 *
 *   node bench/lexical-locomo.ts            # the default pipeline
 *   node bench/lexical-locomo.ts --ablation # every variant of the ablation table
 */
import { fileURLToPath } from 'node:url';
import { analyzeDocument, analyzeQuery } from '../src/core/text/analyzer.ts';
import { LexicalIndex } from '../src/stores/common/lexicalIndex.ts';
import type { Bm25Options } from '../src/stores/common/lexicalIndex.ts';
import { expandQuery } from '../src/stores/common/pseudoRelevanceFeedback.ts';
import type { FeedbackOptions } from '../src/stores/common/pseudoRelevanceFeedback.ts';
import { expandWithNeighbours } from '../src/core/retrieval/neighbourExpansion.ts';
import type { NeighbourOptions } from '../src/core/retrieval/neighbourExpansion.ts';
import { formatTurn, KS, loadSamples, recallAtKs, turnsOf, type Sample, type Turn } from './locomo/locomoData.ts';
import { detailTable, summaryLine, type RecallRow } from './locomo/recallTable.ts';

export interface Pipeline {
  name: string;
  bm25?: Partial<Bm25Options>;
  feedback?: Partial<FeedbackOptions>;
  neighbours?: Partial<NeighbourOptions>;
}

const DEPTH = 50;

/** The neighbour relation of the product (same session, adjacent creation order), here dia ids. */
function neighbourLookup(turns: readonly Turn[]): (docId: string) => string[] {
  const position = new Map(turns.map((turn, i) => [turn.dia_id, i]));
  const session = (id: string) => id.split(':')[0];
  return (docId) => {
    const i = position.get(docId);
    if (i === undefined) return [];
    return [turns[i - 1], turns[i + 1]]
      .filter((turn) => turn !== undefined && session(turn.dia_id) === session(docId))
      .map((turn) => turn.dia_id);
  };
}

export function evaluate(samples: readonly Sample[], pipeline: Pipeline): RecallRow[] {
  const rows: RecallRow[] = [];
  for (const sample of samples) {
    const turns = turnsOf(sample);
    const index = new LexicalIndex(pipeline.bm25);
    for (const turn of turns)
      index.upsert(turn.dia_id, analyzeDocument({ content: formatTurn(turn), entities: [], tags: [] }));
    const neighbours = neighbourLookup(turns);
    for (const qa of sample.qa) {
      let terms = analyzeQuery(qa.question);
      if (pipeline.feedback) terms = expandQuery(index, terms, pipeline.feedback);
      let hits = index.search(terms, pipeline.neighbours ? 2 * DEPTH : DEPTH);
      if (pipeline.neighbours) hits = expandWithNeighbours(hits, neighbours, pipeline.neighbours).slice(0, DEPTH);
      const ranked = hits.map((hit) => hit.memory_id);
      const recall = recallAtKs(ranked, qa.evidence);
      rows.push({ sample: sample.sample_id, category: qa.category, recall });
    }
  }
  return rows;
}

export const DEFAULT_PIPELINE: Pipeline = { name: 'BM25 + neighbours (default)', neighbours: {} };

export const ABLATION: readonly Pipeline[] = [
  { name: 'BM25 (k1 0.9, b 0.4)' },
  { name: 'BM25 k1 1.2, b 0.75 (classic)', bm25: { k1: 1.2, b: 0.75 } },
  { name: '+ RM3 (10 docs, 10 terms, l 0.3)', feedback: {} },
  { name: '+ RM3 (3 docs, 20 terms, l 0.1)', feedback: { documents: 3, terms: 20, lambda: 0.1 } },
  { name: '+ neighbours max, d 0.5, 1 hop', neighbours: { combine: 'max', decay: 0.5, hops: 1 } },
  { name: '+ neighbours sum, d 0.5, 1 hop', neighbours: { combine: 'sum', decay: 0.5, hops: 1 } },
  { name: '+ neighbours sum, d 0.7, 2 hops (default)', neighbours: {} },
  { name: '+ neighbours default + RM3 l 0.1', neighbours: {}, feedback: { documents: 3, terms: 20, lambda: 0.1 } },
];

function main(): void {
  const samples = loadSamples();
  const ablation = process.argv.includes('--ablation');
  const header = `${'pipeline'.padEnd(42)} | ${['tuning', 'held-out', 'all'].map((s) => `${s} @${KS.join('/')}`.padEnd(29)).join(' | ')}`;
  const pipelines = ablation ? ABLATION : [DEFAULT_PIPELINE];
  const results = pipelines.map((pipeline) => ({ pipeline, rows: evaluate(samples, pipeline) }));
  console.log(header);
  for (const { pipeline, rows } of results) console.log(summaryLine(pipeline.name, rows));
  for (const { pipeline, rows } of results)
    if (!ablation || process.argv.includes('--detail')) console.log(detailTable(pipeline.name, rows));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
