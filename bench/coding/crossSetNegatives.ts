/**
 * Never-stored questions nobody wrote for the floor: each coding set's questions asked of the other
 * set's store. The first set's store (its 40 memories and one LoCoMo conversation, as bench:quality
 * stores it) gets the second set's 78 questions and 15 negatives; the second set's store (121
 * memories of six projects) gets the first set's 40 questions and 10 negatives. Almost none of them
 * has its answer there (both sets are coding memories, so a few topics overlap: the count is a
 * relative measure between variants, not a target). Printed beside each store's own questions at
 * the default floor (R@1, R@5 of the target), so a change to abstention shows what it gains and
 * what it answers that it should not.
 *   node bench/coding/crossSetNegatives.ts [--features out.jsonl] [--show]
 * With --features, one JSON line per question: the floorless top scores and what the top matched.
 * With --show, every foreign question that gets an answer is printed with its result count (how
 * many of them partial matches) and its first four results: what an agent would read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { queryConcepts } from '../../src/core/retrieval/queryConcepts.ts';
import { conceptInformation } from '../../src/core/retrieval/queryCoverage.ts';
import { loadSamples, sessionsOf } from '../locomo/locomoData.ts';
import { codingMemory, distractorTurn, loadCodingSet } from './codingData.ts';
import { loadProjectSet, projectMemory } from './codingSet2.ts';

interface Question {
  q: string;
  /** The bench id of the memory that answers it in this store; null for a question about something not stored here. */
  target: string | null;
  origin: string;
}

const featuresPath = process.argv.includes('--features') ? process.argv[process.argv.indexOf('--features') + 1] : null;
const show = process.argv.includes('--show');
const features: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'fml-cross-'));
const store = new SqliteMemoryStore({ dataDir });
const core = new MemoryCore({ store });
await core.open();
const first = loadCodingSet();
const second = loadProjectSet();
try {
  // Store 1: the first set with LoCoMo conv-26 as distractors.
  const idOf = new Map<string, string>();
  const conv = loadSamples().find((sample) => sample.sample_id === 'conv-26')!;
  for (const session of sessionsOf(conv))
    for (const turn of session.turns) await core.storeMemory(distractorTurn('one', session, turn));
  for (const memory of first.memories) {
    const stored = await core.storeMemory(codingMemory('one', memory));
    idOf.set(stored.memory_id, memory.id);
  }
  // Store 2: the second set, each memory with its project.
  for (const memory of second.memories) {
    const stored = await core.storeMemory(projectMemory('two', memory));
    idOf.set(stored.memory_id, memory.id);
  }
  const report = async (user: string, label: string, questions: Question[]): Promise<void> => {
    let at1 = 0;
    let at5 = 0;
    let own = 0;
    const foreign: number[] = [];
    for (const question of questions) {
      const answered = await core.recall({ user_id: user, query: question.q }, { logAccess: false });
      const ranked = answered.memories.map((memory) => idOf.get(memory.memory_id));
      if (question.target !== null) {
        own++;
        at1 += ranked[0] === question.target ? 1 : 0;
        at5 += ranked.slice(0, 5).includes(question.target) ? 1 : 0;
      } else {
        foreign.push(ranked.length);
        if (show && ranked.length > 0) {
          const partial = answered.memories.filter((memory) => memory.score_breakdown.signals.includes('partial'));
          console.log(`[${user}] ${question.q}: ${ranked.length} results, ${partial.length} partial`);
          for (const memory of answered.memories.slice(0, 4))
            console.log(
              `  ${memory.relevance_score.toFixed(3)} ${JSON.stringify(memory.score_breakdown.matched_terms)} ${memory.content.slice(0, 100)}`,
            );
        }
      }
      if (featuresPath) {
        const open = await core.recall({ user_id: user, query: question.q, min_similarity: 0 }, { logAccess: false });
        const concepts = queryConcepts(question.q);
        const stats = await store.termStatistics(
          user,
          concepts.map((concept) => concept.term),
        );
        const information = conceptInformation(concepts, stats);
        features.push(
          JSON.stringify({
            store: user,
            origin: question.origin,
            q: question.q,
            answerable: question.target !== null,
            targetRank:
              question.target === null
                ? null
                : open.memories.findIndex((m) => idOf.get(m.memory_id) === question.target),
            returned: ranked.length,
            documents: stats.documents,
            concepts: concepts.map((concept, index) => ({
              term: concept.term,
              df: stats.frequencies.get(concept.term) ?? 0,
              info: information[index],
              generic: concept.generic,
              topical: concept.topical,
            })),
            top: open.memories.slice(0, 5).map((m) => ({
              score: m.relevance_score,
              text: m.score_breakdown.text_match,
              terms: m.score_breakdown.matched_terms,
              turn: m.memory_subtype === 'conversation',
            })),
          }),
        );
      }
    }
    const mean = foreign.reduce((sum, count) => sum + count, 0) / Math.max(1, foreign.length);
    const any = foreign.filter((count) => count > 0).length;
    console.log(
      `${label.padEnd(44)} own R@1 ${((100 * at1) / Math.max(1, own)).toFixed(1)} R@5 ${((100 * at5) / Math.max(1, own)).toFixed(1)} (n=${own})` +
        `  foreign: mean ${mean.toFixed(2)}, any ${((100 * any) / Math.max(1, foreign.length)).toFixed(0)} % (n=${foreign.length})`,
    );
  };
  await report('one', 'store 1 (coding + conv-26)', [
    ...first.queries.map((query) => ({ q: query.q, target: query.id, origin: 'coding' })),
    ...first.negatives.map((q) => ({ q, target: null, origin: 'coding-neg' })),
    ...second.queries.map((query) => ({ q: query.q, target: null, origin: 'coding2' })),
    ...second.negatives.map((q) => ({ q, target: null, origin: 'coding2-neg' })),
  ]);
  await report('two', 'store 2 (coding-2, six projects)', [
    ...second.queries.map((query) => ({ q: query.q, target: query.target, origin: 'coding2' })),
    ...second.negatives.map((q) => ({ q, target: null, origin: 'coding2-neg' })),
    ...first.queries.map((query) => ({ q: query.q, target: null, origin: 'coding' })),
    ...first.negatives.map((q) => ({ q, target: null, origin: 'coding-neg' })),
  ]);
  if (featuresPath) writeFileSync(featuresPath, features.join('\n') + '\n');
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
