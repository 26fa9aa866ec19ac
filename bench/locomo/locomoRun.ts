import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk } from '../../test/support/testCore.ts';
import { recallAtKs, sessionsOf, turnMemory, type Sample } from './locomoData.ts';
import type { RecallRow } from './recallTable.ts';

/** What a LoCoMo run through an MCP client measured: recall per question, and each call's time and CPU. */
export interface LocomoRun {
  rows: RecallRow[];
  recallMs: number[];
  storeMs: number[];
  recallCpuMs: number;
  storeCpuMs: number;
  /** Of recallCpuMs, the server's main thread's (0 without options.mainThreadCpuMs). */
  recallMainThreadCpuMs: number;
}

/** A run with no calls yet. */
export function emptyLocomoRun(): LocomoRun {
  return { rows: [], recallMs: [], storeMs: [], recallCpuMs: 0, storeCpuMs: 0, recallMainThreadCpuMs: 0 };
}

/**
 * The LoCoMo split through `client` as data/README.md scores it: one store_memory per dialog turn
 * (dia_id in metadata), one user per conversation, one recall_memories (limit 50) per question.
 * `cpuMs` is the CPU clock to charge calls to: this thread's for an in-process server, the
 * server process's for one of its own.
 */
export async function runLocomo(
  client: Client,
  samples: readonly Sample[],
  options: { cpuMs: () => number; mainThreadCpuMs?: () => number; minSimilarity?: number },
): Promise<LocomoRun> {
  const run = emptyLocomoRun();
  const mainThreadCpuMs = options.mainThreadCpuMs ?? (() => 0);
  for (const sample of samples) {
    const user = `locomo-${sample.sample_id}`;
    for (const session of sessionsOf(sample)) {
      for (const turn of session.turns) {
        const started = performance.now();
        const cpuBefore = options.cpuMs();
        await callOk(client, 'store_memory', turnMemory(user, session, turn));
        run.storeMs.push(performance.now() - started);
        run.storeCpuMs += options.cpuMs() - cpuBefore;
      }
    }
    for (const qa of sample.qa) {
      // A real client's transport (stdio, HTTP) hands control back to the event loop between
      // calls; the in-memory one does not, so the loop yields here as the server would see it.
      await new Promise((resolve) => setImmediate(resolve));
      const started = performance.now();
      const cpuBefore = options.cpuMs();
      const mainThreadBefore = mainThreadCpuMs();
      const result = await callOk<{ memories: Array<{ metadata: { dia_id?: string } }> }>(client, 'recall_memories', {
        user_id: user,
        query: qa.question,
        limit: 50,
        ...(options.minSimilarity !== undefined ? { min_similarity: options.minSimilarity } : {}),
      });
      run.recallMs.push(performance.now() - started);
      run.recallCpuMs += options.cpuMs() - cpuBefore;
      run.recallMainThreadCpuMs += mainThreadCpuMs() - mainThreadBefore;
      const ranked = result.memories.map((memory) => String(memory.metadata.dia_id));
      run.rows.push({ sample: sample.sample_id, category: qa.category, recall: recallAtKs(ranked, qa.evidence) });
    }
  }
  return run;
}
