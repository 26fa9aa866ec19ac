/**
 * `npm run bench:quality`: the LoCoMo development split and the coding set through the MCP server
 * exactly as a client uses them, over the SDK's in-memory transport. LoCoMo: one store_memory per
 * dialog turn (dia_id in metadata), one recall_memories per question, one user per conversation.
 * Coding set: its memories plus a LoCoMo conversation as distractors (bench/coding/codingRun.ts).
 *
 *   npm run bench:quality                          # full-text only (no model, no API key)
 *   npm run bench:quality -- --set coding          # one set only: locomo, coding or coding2
 *   npm run bench:quality -- --deterministic       # the same figures every run (stepped clock, no access log): before/after checks
 *   npm run bench:quality -- --stdio [--cli PATH]  # through the built CLI's `fml serve --stdio` in its own process (npm run build first)
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
import { cpuMsOf, mainThreadCpuMsOf, rssMbOf } from './serverProcess.ts';
import { connectStdioServer } from './stdioServer.ts';
import { connectClient } from '../test/support/testCore.ts';
import { KS, loadSamples } from './locomo/locomoData.ts';
import { emptyLocomoRun, runLocomo, type LocomoRun } from './locomo/locomoRun.ts';
import { detailTable, meanRecall } from './locomo/recallTable.ts';
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
  // --stdio: the calls go to `fml serve --stdio` in a process of its own, as an agent's client
  // makes them (the latency a user sees); its CPU is read from /proc. The figures are those of a
  // real clock and access log, so --deterministic does not go with it.
  const stdio = process.argv.includes('--stdio');
  if (stdio && (process.argv.includes('--deterministic') || process.argv.includes('--no-neighbours')))
    throw new Error(
      '--stdio runs the built server as it ships: it does not go with --deterministic or --no-neighbours',
    );
  if (stdio) {
    await stdioRun(dataDir);
    return;
  }
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
  let locomo: LocomoRun = emptyLocomoRun();
  // Main-thread CPU of the LoCoMo calls: client and server share this thread (in-memory transport).
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
    if (setArg === 'all' || setArg === 'locomo')
      locomo = await runLocomo(client, samples, { cpuMs: threadCpuMs, minSimilarity });
  } finally {
    await close();
    await core.close();
    await bench.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const { rows, recallMs, storeMs, recallCpuMs, storeCpuMs } = locomo;
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

/**
 * LoCoMo through the built server over stdio (`--stdio`): recall per question as in the main run
 * (real clock and access log, so not the deterministic figures), the latency the client sees,
 * and the server process's own CPU per call and memory.
 */
async function stdioRun(dataDir: string): Promise<void> {
  // --cli PATH: another build's CLI (a before/after pair with one benchmark).
  const cliIndex = process.argv.indexOf('--cli');
  const cliPath = cliIndex >= 0 ? process.argv[cliIndex + 1] : join(import.meta.dirname, '..', 'dist', 'cli.js');
  const server = await connectStdioServer(cliPath, dataDir);
  let run: LocomoRun;
  let rssMb: number;
  try {
    run = await runLocomo(server.client, loadSamples(), {
      cpuMs: () => cpuMsOf(server.pid),
      mainThreadCpuMs: () => mainThreadCpuMsOf(server.pid),
    });
    rssMb = rssMbOf(server.pid);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const recall = latencySummary(run.recallMs);
  const store = latencySummary(run.storeMs);
  console.log(
    `LoCoMo dev split through \`fml serve --stdio\` (${run.storeMs.length} memories, ${run.rows.length} questions)`,
  );
  console.log(`recall@k   ${KS.map((k) => `@${k}`.padStart(6)).join('')}`);
  console.log(`           ${KS.map((_, i) => meanRecall(run.rows, i).toFixed(1).padStart(6)).join('')}`);
  console.log(
    `latency at the client, ms: recall_memories p50 ${ms(recall.p50)} p95 ${ms(recall.p95)} p99 ${ms(recall.p99)} (n=${recall.n}); store_memory p50 ${ms(store.p50)} p95 ${ms(store.p95)} p99 ${ms(store.p99)} (n=${store.n})`,
  );
  // /proc counts CPU in 10 ms ticks: per call that is coarse, summed over ~1,000 calls it is not.
  console.log(
    `server process CPU per call, mean ms: recall_memories ${ms(run.recallCpuMs / Math.max(1, recall.n))} (main thread ${ms(run.recallMainThreadCpuMs / Math.max(1, recall.n))}), store_memory ${ms(run.storeCpuMs / Math.max(1, store.n))}; server RSS at the end ${rssMb.toFixed(0)} MB; load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

await main();
