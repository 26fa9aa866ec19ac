/**
 * `npm run bench:quality`: the LoCoMo development split and the coding set through the MCP server
 * exactly as a client uses them, over the SDK's in-memory transport. LoCoMo: one store_memory per
 * dialog turn (dia_id in metadata), one recall_memories per question, one user per conversation.
 * Coding set: its memories plus a LoCoMo conversation as distractors (bench/coding/codingRun.ts).
 *
 *   npm run bench:quality                          # full-text only (no model, no API key)
 *   npm run bench:quality -- --set coding          # one set only: locomo, coding or coding2
 *   npm run bench:quality -- --deterministic       # the same figures every run (stepped clock, no access log): before/after checks
 *   FML_EMBEDDING_PROVIDER=hashing-test npm run bench:quality   # fusion path with the deterministic test vectors
 *
 * Coding set 2: one developer's projects, near-miss negatives (bench/coding/codingSet2.ts).
 *
 * Ends with one table of the LoCoMo and first coding set before issue 14's recall work and now
 * (bench/qualitySummary.ts), then the three sets beside a plain BM25 (bench/threeSetTable.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { createEmbeddings } from '../src/runtime/createRuntime.ts';
import { embeddingConfigFromEnv } from '../src/runtime/runtimeConfig.ts';
import { benchBackendArgs, openBenchStore } from './benchBackend.ts';
import { callOk, connectClient } from '../test/support/testCore.ts';
import { formatTurn, KS, loadSamples, parseSessionTime, recallAtKs, sessionsOf } from './locomo/locomoData.ts';
import { detailTable, meanRecall, type RecallRow } from './locomo/recallTable.ts';
import { latencySummary, ms } from './stats.ts';
import { loadCodingSet } from './coding/codingData.ts';
import { codingTable, runCodingSet, type CodingResult } from './coding/codingRun.ts';
import { combinedTable } from './qualitySummary.ts';
import { loadProjectSet, runProjectSet, type ProjectSetResult } from './coding/codingSet2.ts';
import { threeSetTable } from './threeSetTable.ts';

/** The LoCoMo conversation whose turns are the coding set's distractors. */
const DISTRACTOR_SAMPLE = 'conv-26';

const PUBLISHED = [
  { name: 'DRAGON (LoCoMo paper, Table 3)', recall: [null, 56.7, 66.2, 76.7, 82.7] },
  { name: 'BM25 k1 0.9 b 0.4 (this split)', recall: [null, 58, 66, 73, 78] },
];

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-quality-'));
  const embeddings = createEmbeddings(embeddingConfigFromEnv());
  // --no-neighbours measures the contribution of neighbour expansion (the ablation in the README).
  const neighbourRadius = process.argv.includes('--no-neighbours') ? 0 : 2;
  const bench = await openBenchStore(benchBackendArgs(process.argv.slice(2)), dataDir);
  console.log(`store: ${bench.description}`);
  // --deterministic: the same figures on every run, for before/after comparisons of a change that
  // must not move them. Recency reads the clock and access counts, and the access log is written
  // 20 ms after a recall, so which recalls see which counts depends on timing: here the clock steps
  // one second per reading from a fixed instant and no access is logged.
  const deterministic = process.argv.includes('--deterministic');
  if (deterministic) bench.store.recordAccess = () => Promise.resolve();
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const clock = deterministic ? { now: () => new Date((tick += 1000)) } : undefined;
  const core = new MemoryCore({ store: bench.store, embeddings, clock, config: { neighbourRadius } });
  await core.open();
  const { client, close } = await connectClient({ core });
  const samples = loadSamples();
  // --min-similarity X: LoCoMo questions with another relevance floor (0 measures the ranking alone).
  const minIndex = process.argv.indexOf('--min-similarity');
  const minSimilarity = minIndex >= 0 ? Number(process.argv[minIndex + 1]) : undefined;
  const setArg =
    process.argv.find((arg) => arg.startsWith('--set='))?.slice(6) ??
    (process.argv.includes('--set') ? process.argv[process.argv.indexOf('--set') + 1] : 'all');
  if (!['all', 'locomo', 'coding', 'coding2'].includes(setArg))
    throw new Error(`--set must be all, locomo, coding or coding2; got "${setArg}"`);
  let coding: CodingResult | null = null;
  let project: ProjectSetResult | null = null;
  const codingSet = setArg === 'all' || setArg === 'coding' ? loadCodingSet() : null;
  const distractorSample = samples.find((sample) => sample.sample_id === DISTRACTOR_SAMPLE) ?? null;
  const rows: RecallRow[] = [];
  const recallMs: number[] = [];
  const storeMs: number[] = [];
  // Main-thread CPU of the LoCoMo calls: client and server share this thread (in-memory transport).
  let storeCpuMs = 0;
  let recallCpuMs = 0;
  const threadCpuMs = (): number => {
    const usage = process.threadCpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  try {
    if (codingSet) {
      if (!distractorSample)
        throw new Error(`LoCoMo conversation ${DISTRACTOR_SAMPLE} (the coding set's distractors) is missing`);
      coding = await runCodingSet(client, codingSet, distractorSample);
    }
    if (setArg === 'all' || setArg === 'coding2') project = await runProjectSet(client, loadProjectSet());
    for (const sample of setArg === 'all' || setArg === 'locomo' ? samples : []) {
      const user = `locomo-${sample.sample_id}`;
      for (const session of sessionsOf(sample)) {
        for (const turn of session.turns) {
          const started = performance.now();
          const cpuBefore = threadCpuMs();
          await callOk(client, 'store_memory', {
            user_id: user,
            content: formatTurn(turn),
            memory_category: 'episodic',
            memory_subtype: 'conversation',
            ...(session.dateTime ? { event_time: parseSessionTime(session.dateTime) } : {}),
            metadata: { dia_id: turn.dia_id, speaker: turn.speaker, session: session.session },
          });
          storeMs.push(performance.now() - started);
          storeCpuMs += threadCpuMs() - cpuBefore;
        }
      }
      for (const qa of sample.qa) {
        // A real client's transport (stdio, HTTP) hands control back to the event loop between
        // calls; the in-memory one does not, so the loop yields here as the server would see it.
        await new Promise((resolve) => setImmediate(resolve));
        const started = performance.now();
        const cpuBefore = threadCpuMs();
        const result = await callOk<{ memories: Array<{ metadata: { dia_id?: string } }> }>(client, 'recall_memories', {
          user_id: user,
          query: qa.question,
          limit: 50,
          ...(minSimilarity !== undefined ? { min_similarity: minSimilarity } : {}),
        });
        recallMs.push(performance.now() - started);
        recallCpuMs += threadCpuMs() - cpuBefore;
        const ranked = result.memories.map((memory) => String(memory.metadata.dia_id));
        rows.push({ sample: sample.sample_id, category: qa.category, recall: recallAtKs(ranked, qa.evidence) });
      }
    }
  } finally {
    await close();
    await core.close();
    await bench.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (coding && codingSet) console.log(`\n${codingTable(coding, codingSet.memories.length)}\n`);
  const three = (): string =>
    threeSetTable({
      locomo: rows.length > 0 ? rows : null,
      locomoSamples: samples,
      coding,
      codingDistractors: distractorSample,
      project,
    });
  if (rows.length === 0) {
    if (coding) console.log(`\n${combinedTable(coding, rows)}`);
    console.log(`\n${three()}`);
    return;
  }
  const mode = `${embeddings ? `hybrid (${embeddings.model})` : 'full-text only, no embedding provider'}${neighbourRadius === 0 ? ', neighbour expansion off' : ''}${minSimilarity !== undefined ? `, min_similarity ${minSimilarity}` : ', default relevance floor'}${deterministic ? ', deterministic (stepped clock, no access log)' : ''}`;
  console.log(
    `LoCoMo dev split through MCP (${samples.length} conversations, ${storeMs.length} memories, ${rows.length} questions); retrieval: ${mode}`,
  );
  console.log(detailTable('Firebolt Memory Layer', rows));
  console.log(`\nrecall@k, all questions   ${KS.map((k) => `@${k}`.padStart(6)).join('')}`);
  console.log(
    `  ${'Firebolt Memory Layer'.padEnd(32)}${KS.map((_, i) => meanRecall(rows, i).toFixed(1).padStart(6)).join('')}`,
  );
  for (const published of PUBLISHED)
    console.log(
      `  ${published.name.padEnd(32)}${published.recall.map((value) => (value === null ? '-' : value.toFixed(1)).padStart(6)).join('')}`,
    );
  const recall = latencySummary(recallMs);
  const store = latencySummary(storeMs);
  console.log(`\n${combinedTable(coding, rows)}`);
  console.log(`\n${three()}`);
  console.log(
    `\nlatency through MCP (in-memory transport), ms: recall_memories p50 ${ms(recall.p50)} p95 ${ms(recall.p95)} p99 ${ms(recall.p99)} (n=${recall.n}); store_memory p50 ${ms(store.p50)} p95 ${ms(store.p95)} p99 ${ms(store.p99)} (n=${store.n})`,
  );
  // CPU per call moves less with other processes' load than latency does; RSS is the whole process (client, server, store).
  console.log(
    `main-thread CPU per call, mean ms: recall_memories ${ms(recallCpuMs / Math.max(1, recall.n))}, store_memory ${ms(storeCpuMs / Math.max(1, store.n))}; RSS at the end ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

await main();
