/**
 * The LoCoMo development split in one core, stored as `bench/quality.ts` stores it (one memory per
 * dialog turn, the session's date as event_time, one user per conversation, stepped clock, no
 * access log), for checks that ask its questions many times: bench/locomo/neighbourHoldout.ts and
 * bench/locomo/diagnoseTemporal.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import type { RecallOutput } from '../../src/core/api/recallOutput.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { loadSamples, recallAtKs, sessionsOf, turnMemory, type Question, type Sample } from './locomoData.ts';

export interface LocomoCore {
  core: MemoryCore;
  samples: Sample[];
  /** The recall the quality bench makes for `qa` (limit 50, default floor unless `minSimilarity`). */
  ask(sample: Sample, qa: Question, minSimilarity?: number, limit?: number): Promise<RecallOutput>;
  /** recall@1/5/10/25/50 of every question, in the samples' order. */
  recallAll(): Promise<QuestionRecall[]>;
  close(): Promise<void>;
}

export interface QuestionRecall {
  sample: string;
  category: number;
  recall: number[];
}

const userOf = (sample: Sample): string => `locomo-${sample.sample_id}`;

export async function openLocomoCore(): Promise<LocomoCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-locomo-'));
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const core = new MemoryCore({
    store: new SqliteMemoryStore({ dataDir }),
    clock: { now: () => new Date((tick += 1000)) },
  });
  await core.open();
  const samples = loadSamples();
  for (const sample of samples)
    for (const session of sessionsOf(sample))
      for (const turn of session.turns) await core.storeMemory(turnMemory(userOf(sample), session, turn));
  const ask = (sample: Sample, qa: Question, minSimilarity?: number, limit = 50): Promise<RecallOutput> =>
    core.recall(
      {
        user_id: userOf(sample),
        query: qa.question,
        limit,
        ...(minSimilarity !== undefined ? { min_similarity: minSimilarity } : {}),
      },
      { tool: 'bench', logAccess: false },
    );
  return {
    core,
    samples,
    ask,
    async recallAll() {
      const out: QuestionRecall[] = [];
      for (const sample of samples)
        for (const qa of sample.qa) {
          const result = await ask(sample, qa);
          const ranked = result.memories.map((memory) => String(memory.metadata.dia_id));
          out.push({ sample: sample.sample_id, category: qa.category, recall: recallAtKs(ranked, qa.evidence) });
        }
      return out;
    },
    async close() {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
